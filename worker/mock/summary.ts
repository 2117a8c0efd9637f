// What a mock run served, for the log at exit and for CI: recorded calls used (every round
// served), partly used and unused, and the mismatches and warnings, as text, JSON or JUnit.
import { xmlEscape } from '../report/junit.js';
import type { MockMatcher } from './matcher.js';

export interface MockSummary {
  capture: string;
  calls: number;
  used: number;
  partlyUsed: { call: string; rounds: string }[];
  unused: string[];
  /** Answers served, mismatches answered with an error, answers served with a warning. */
  answered: number;
  mismatches: string[];
  warnings: string[];
}

/** The summary of what `matcher` has done so far. `answered`: requests it answered from the book. */
export function summarize(matcher: MockMatcher, capture: string, answered: number): MockSummary {
  const partlyUsed: MockSummary['partlyUsed'] = [];
  const unused: string[] = [];
  let used = 0;
  for (const call of matcher.book.calls) {
    const label = `${call.method}${call.name !== null ? ` ${call.name}` : ''} (${call.id})`;
    const served = matcher.served.get(call);
    if (!served || served.size === 0) unused.push(label);
    else if (served.size === call.rounds.length) used++;
    else partlyUsed.push({ call: label, rounds: `${served.size} of ${call.rounds.length} rounds` });
  }
  return { capture, calls: matcher.book.calls.length, used, partlyUsed, unused, answered, mismatches: [...matcher.mismatches], warnings: [...matcher.warnings] };
}

const LIST_MAX = 20;
const list = (items: readonly string[]) => items.slice(0, LIST_MAX).map((s) => `  ${s}\n`).join('') + (items.length > LIST_MAX ? `  … and ${items.length - LIST_MAX} more\n` : '');

/** The summary as the lines the mock logs at exit. */
export function summaryText(s: MockSummary): string {
  let out = `mock summary for ${s.capture}: ${s.answered} request(s) answered; recorded calls: ${s.used} used, ${s.partlyUsed.length} partly used, ${s.unused.length} unused (of ${s.calls}); ${s.mismatches.length} mismatch(es), ${s.warnings.length} warning(s)\n`;
  if (s.partlyUsed.length > 0) out += `partly used:\n${list(s.partlyUsed.map((p) => `${p.call}: ${p.rounds}`))}`;
  if (s.unused.length > 0) out += `unused:\n${list(s.unused)}`;
  if (s.mismatches.length > 0) out += `mismatches:\n${list(s.mismatches)}`;
  if (s.warnings.length > 0) out += `warnings:\n${list(s.warnings)}`;
  return out;
}

/** JUnit XML: one case per mismatch (failing) and one per warning, and one passing case for
 *  the run, so a clean run still shows up in CI. */
export function summaryJunit(s: MockSummary): string {
  const cls = xmlEscape(s.capture);
  const cases = [
    `    <testcase classname="${cls}" name="mock served ${s.answered} request(s)"><system-out>${xmlEscape(summaryText(s))}</system-out></testcase>`,
    ...s.mismatches.map((m, i) => `    <testcase classname="${cls}" name="mismatch ${i + 1}"><failure type="mrtr-mock" message="${xmlEscape(m)}">${xmlEscape(m)}</failure></testcase>`),
    ...s.warnings.map((w, i) => `    <testcase classname="${cls}" name="warning ${i + 1}"><system-out>${xmlEscape(w)}</system-out></testcase>`),
  ];
  const failures = s.mismatches.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mrtr-inspector mock" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="${cls}" tests="${cases.length}" failures="${failures}" errors="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
