// Findings as JUnit XML: one test case per conversation, failing when it has an
// error-severity finding; warnings and infos go to the case's system-out.
import type { Conversation, Finding } from '../protocol.js';

/** Escapes text for XML content and attribute values. */
export function xmlEscape(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped, not escaped.
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A JUnit XML document for one capture. */
export function junitReport(conversations: readonly Conversation[], findings: readonly Finding[], path: string): string {
  const byConv = new Map<string, Finding[]>();
  const loose: Finding[] = [];
  for (const f of findings) {
    if (f.conversation === null) loose.push(f);
    else (byConv.get(f.conversation) ?? byConv.set(f.conversation, []).get(f.conversation)!).push(f);
  }
  const cases: string[] = [];
  let failures = 0;
  const emit = (name: string, fs: readonly Finding[]) => {
    const errors = fs.filter((f) => f.severity === 'error');
    const others = fs.filter((f) => f.severity !== 'error');
    const line = (f: Finding) => `${f.severity} ${f.rule} (exchange ${f.exchange}, ${f.clause}): ${f.message}`;
    let body = '';
    if (errors.length > 0) {
      failures++;
      body += `<failure message="${xmlEscape(`${errors.length} error finding(s)`)}" type="mrtr-lint">${xmlEscape(errors.map(line).join('\n'))}</failure>`;
    }
    if (others.length > 0) body += `<system-out>${xmlEscape(others.map(line).join('\n'))}</system-out>`;
    cases.push(`    <testcase classname="${xmlEscape(path)}" name="${xmlEscape(name)}">${body}</testcase>`);
  };
  for (const c of conversations) emit(`${c.method}${c.name ? ' ' + c.name : ''} (${c.id})`, byConv.get(c.id) ?? []);
  if (loose.length > 0) emit('capture-level findings', loose);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mrtr-inspector lint" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="${xmlEscape(path)}" tests="${cases.length}" failures="${failures}" errors="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
