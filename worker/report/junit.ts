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
  let s = '';
  for (const piece of junitReportChunks(conversations, findings, path)) s += piece;
  return s;
}

/** The same document as `junitReport`, in pieces (a test case at a time). The totals in
 *  the head are counted first, from the findings alone, so no case is held to write them. */
export function* junitReportChunks(conversations: readonly Conversation[], findings: readonly Finding[], path: string): Generator<string> {
  const byConv = new Map<string, Finding[]>();
  const loose: Finding[] = [];
  for (const f of findings) {
    if (f.conversation === null) loose.push(f);
    else (byConv.get(f.conversation) ?? byConv.set(f.conversation, []).get(f.conversation)!).push(f);
  }
  const failing = (fs: readonly Finding[] | undefined) => fs !== undefined && fs.some((f) => f.severity === 'error');
  const tests = conversations.length + (loose.length > 0 ? 1 : 0);
  let failures = failing(loose) ? 1 : 0;
  for (const c of conversations) if (failing(byConv.get(c.id))) failures++;
  const at = xmlEscape(path);
  yield '<?xml version="1.0" encoding="UTF-8"?>\n'
    + `<testsuites name="mrtr-inspector lint" tests="${tests}" failures="${failures}">\n`
    + `  <testsuite name="${at}" tests="${tests}" failures="${failures}" errors="0">\n`;
  const testcase = (name: string, fs: readonly Finding[]) => {
    const errors = fs.filter((f) => f.severity === 'error');
    const others = fs.filter((f) => f.severity !== 'error');
    const line = (f: Finding) => `${f.severity} ${f.rule} (exchange ${f.exchange}, ${f.clause}): ${f.message}`;
    let body = '';
    if (errors.length > 0) body += `<failure message="${xmlEscape(`${errors.length} error finding(s)`)}" type="mrtr-lint">${xmlEscape(errors.map(line).join('\n'))}</failure>`;
    if (others.length > 0) body += `<system-out>${xmlEscape(others.map(line).join('\n'))}</system-out>`;
    return `    <testcase classname="${at}" name="${xmlEscape(name)}">${body}</testcase>\n`;
  };
  for (const c of conversations) yield testcase(`${c.method}${c.name ? ' ' + c.name : ''} (${c.id})`, byConv.get(c.id) ?? []);
  if (loose.length > 0) yield testcase('capture-level findings', loose);
  yield '  </testsuite>\n</testsuites>\n';
}
