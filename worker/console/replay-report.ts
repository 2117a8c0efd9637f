// Replay reports for the CLI and the page's export: text, JSON and JUnit (one test case per
// conversation, one for the lint findings in the new traffic). A replay fails when any
// final answer differs, any conversation stopped or failed, or an error-severity finding
// appears in the replay's own traffic.
import type { Finding } from '../protocol.js';
import type { ReplayRun } from './replay.js';
import { terminalSafe as safe } from '../report/terminal-safe.js';

/** Whether a replay counts as a regression. */
export function replayFailed(run: ReplayRun, findings: readonly Finding[]): boolean {
  return run.outcomes.some((o) => o.status !== 'same') || findings.some((f) => f.severity === 'error');
}

/** How the CLI opts in to sending credentials to another origin. */
export const CLI_SEND_CREDENTIALS = 'pass --send-credentials to send them';

/**
 * The notice for credentials a replay held back, or null when none was: `how` says how to
 * opt in where the report is read (the CLI's flag, the page's checkbox).
 */
export function credentialsNotice(run: Pick<ReplayRun, 'credentialsWithheld' | 'target'>, how: string = CLI_SEND_CREDENTIALS): string | null {
  if (run.credentialsWithheld.length === 0) return null;
  return `Captured credentials (${run.credentialsWithheld.join(', ')}) were not sent to ${run.target} (a different origin from the recording); ${how}.`;
}

/** The JSON report (the records are left out: export them as a capture instead). */
export function replayJson(run: ReplayRun, findings: readonly Finding[], input: { path: string; version: string }): string {
  const { records, ...rest } = run;
  return JSON.stringify({
    tool: { name: 'mrtr-inspector', version: input.version }, kind: 'replay', input: input.path, ...rest, exchanges: records.length,
    ...(credentialsNotice(run) ? { credentialsNotice: credentialsNotice(run) } : {}), findings, passed: !replayFailed(run, findings),
  }, null, 2) + '\n';
}

const target = (o: { method: string; name: string | null }) => (o.name !== null ? `${o.method} ${o.name}` : o.method);

/** A plain text report (no colour; control characters from the server are escaped). */
export function replayText(run: ReplayRun, findings: readonly Finding[], input: { path: string }): string {
  const lines = [`Replay of ${safe(input.path)} against ${safe(run.target)}`, ''];
  const notice = credentialsNotice(run);
  if (notice) lines.push(safe(notice), '');
  for (const o of run.outcomes) {
    const mark = o.status === 'same' ? 'same     ' : o.status === 'different' ? 'DIFFERENT' : o.status === 'stopped' ? 'STOPPED  ' : 'FAILED   ';
    lines.push(`  ${mark} ${safe(target(o))} (${o.rounds} round${o.rounds === 1 ? '' : 's'}, recorded ${o.recordedRounds}) [${safe(o.conversation)}]`);
    for (const c of o.changes) lines.push(`      ${c.kind} ${safe(c.path || '(whole answer)')}: ${c.before !== undefined ? safe(c.before.slice(0, 200)) : ''}${c.kind === 'changed' ? ' → ' : ''}${c.after !== undefined ? safe(c.after.slice(0, 200)) : ''}`);
    if (o.omitted > 0) lines.push(`      … and ${o.omitted} more changes`);
    if (o.questions) lines.push(`      the target asked what the recording never answered: ${o.questions.map((q) => `${safe(q.key)} (${q.kind})`).join(', ')}`);
    if (o.renamed) lines.push(`      answers re-used by kind for renamed keys: ${Object.entries(o.renamed).map(([k, f]) => `${safe(k)} ← ${safe(f)}`).join(', ')}`);
    if (o.error) lines.push(`      ${safe(o.error)}`);
    if (o.credentialsWithheld && o.status !== 'same') lines.push(`      sent without the captured ${o.credentialsWithheld.map(safe).join(', ')}`);
  }
  for (const s of run.skipped) lines.push(`  skipped   ${safe(s.method)} [${safe(s.conversation)}]: ${safe(s.reason)}`);
  const errors = findings.filter((f) => f.severity === 'error');
  if (findings.length > 0) {
    lines.push('', 'Findings in the replay traffic (errors first):');
    const rank = { error: 0, warning: 1, info: 2 } as const;
    const sorted = [...findings].sort((a, b) => rank[a.severity] - rank[b.severity] || a.exchange - b.exchange);
    for (const f of sorted) lines.push(`  ${f.severity.padEnd(7)} ${safe(f.rule)} (exchange ${f.exchange}): ${safe(f.message)}`);
  }
  const s = run.summary;
  lines.push('', `${s.same} same, ${s.different} different, ${s.stopped} stopped, ${s.failed} failed, ${s.skipped} skipped; ${errors.length} error finding${errors.length === 1 ? '' : 's'} in the new traffic.`);
  lines.push(replayFailed(run, findings) ? 'Replay FAILED.' : 'Replay passed.', '');
  return lines.join('\n');
}

const xml = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JUnit XML: a test case per replayed conversation, one for the findings, skipped ones as skipped. */
export function replayJunit(run: ReplayRun, findings: readonly Finding[], input: { path: string }): string {
  const cases: string[] = [];
  let failures = 0;
  for (const o of run.outcomes) {
    const name = xml(`${target(o)} [${o.conversation}]`);
    if (o.status === 'same') {
      cases.push(`    <testcase classname="replay" name="${name}"/>`);
      continue;
    }
    failures++;
    const body = [...o.changes.map((c) => `${c.kind} ${c.path}: ${c.before ?? ''} -> ${c.after ?? ''}`), ...(o.questions ? [`unanswered: ${o.questions.map((q) => q.key).join(', ')}`] : []), ...(o.error ? [o.error] : []), ...(o.credentialsWithheld ? [`sent without the captured ${o.credentialsWithheld.join(', ')}`] : [])].join('\n');
    cases.push(`    <testcase classname="replay" name="${name}">\n      <failure message="${xml(o.status)}">${xml(body)}</failure>\n    </testcase>`);
  }
  for (const s of run.skipped) cases.push(`    <testcase classname="replay" name="${xml(`${s.method} [${s.conversation}]`)}">\n      <skipped message="${xml(s.reason)}"/>\n    </testcase>`);
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    failures++;
    cases.push(`    <testcase classname="replay" name="lint of the replay traffic">\n      <failure message="${errors.length} error finding(s)">${xml(errors.map((f) => `${f.rule} (exchange ${f.exchange}): ${f.message}`).join('\n'))}</failure>\n    </testcase>`);
  } else cases.push('    <testcase classname="replay" name="lint of the replay traffic"/>');
  const tests = cases.length;
  const notice = credentialsNotice(run);
  const out = notice ? `\n    <system-out>${xml(notice)}</system-out>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mrtr-inspector replay" tests="${tests}" failures="${failures}">\n  <testsuite name="${xml(`replay ${input.path} against ${run.target}`)}" tests="${tests}" failures="${failures}" skipped="${run.skipped.length}">\n${cases.join('\n')}${out}\n  </testsuite>\n</testsuites>\n`;
}
