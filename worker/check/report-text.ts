// The check as text, grouped by target like lint groups by conversation: what failed and
// warned, with the expectation and the clause, then the counts of the rest. Colour is the
// caller's choice; every verdict also has a word, so colour is never the only signal.
// Hazard: names and details come from the server; each passes through terminalSafe.
import type { Finding } from '../protocol.js';
import { terminalSafe as safe } from '../report/terminal-safe.js';
import { groupFindings } from '../report/group-findings.js';
import type { CheckRun, ProbeResult, ProbeVerdict } from './types.js';

const COLOR: Record<ProbeVerdict, string> = { failed: '\x1b[31m', warning: '\x1b[33m', passed: '\x1b[32m', 'not-applicable': '\x1b[2m' };
const WORD: Record<ProbeVerdict, string> = { failed: '✖ failed', warning: '▲ warning', passed: '✓ passed', 'not-applicable': '· n/a' };
const BOLD = '\x1b[1m';
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';

const bySeverity = (a: { severity: string }, b: { severity: string }) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1);

/** Whether the check fails a CI job: a failed probe, an error finding, or nothing checked. */
export function checkFailed(run: CheckRun, findings: readonly Finding[]): boolean {
  return run.summary.failed > 0 || findings.some((f) => f.severity === 'error');
}

/** The check as text. `findings` are the lint findings on the check's own traffic. */
export function checkText(run: CheckRun, findings: readonly Finding[], color: boolean): string {
  const paint = (code: string, s: string) => (color ? code + safe(s) + RESET : safe(s));
  const s = run.summary;
  const out: string[] = [];
  out.push(paint(BOLD, `mrtr-inspector check ${run.target}`) + paint(DIM, run.serverInfo ? ` (${run.serverInfo})` : ''));
  out.push(`${run.calls} requests in ${(run.elapsedMs / 1000).toFixed(1)} s; ${run.probes.length} probes: ${s.failed} failed, ${s.warning} warnings, ${s.passed} passed, ${s['not-applicable']} not applicable`);
  const byTarget = new Map<string, ProbeResult[]>();
  for (const p of run.probes) (byTarget.get(p.target) ?? byTarget.set(p.target, []).get(p.target)!).push(p);
  for (const [target, ps] of byTarget) {
    out.push('');
    out.push(paint(BOLD, target));
    for (const p of ps.filter((p) => p.verdict === 'failed' || p.verdict === 'warning')) {
      out.push(`  ${paint(COLOR[p.verdict], WORD[p.verdict].padEnd(10))} ${safe(p.probe)}  ${paint(DIM, p.clause)}`);
      out.push(`             expected: ${safe(p.expected)}`);
      out.push(`             got:      ${safe(p.detail)}`);
    }
    const passed = ps.filter((p) => p.verdict === 'passed').length;
    const na = ps.filter((p) => p.verdict === 'not-applicable').length;
    out.push(paint(DIM, `  ${passed} passed, ${na} not applicable${na > 0 ? ` (${[...new Set(ps.filter((p) => p.verdict === 'not-applicable').map((p) => p.detail))].slice(0, 2).map(safe).join('; ')})` : ''}`));
  }
  if (run.skipped.length > 0) {
    out.push('');
    out.push(paint(BOLD, 'Skipped'));
    for (const k of run.skipped) out.push(`  ${safe(k.target)}: ${safe(k.reason)}`);
  }
  if (run.notes.length > 0) {
    out.push('');
    out.push(paint(BOLD, 'Notes'));
    for (const n of run.notes) out.push(`  ${safe(n)}`);
  }
  const shown = findings.filter((f) => f.severity !== 'info');
  out.push('');
  out.push(paint(BOLD, `Lint findings on the check's traffic: ${findings.filter((f) => f.severity === 'error').length} errors, ${findings.filter((f) => f.severity === 'warning').length} warnings`) + paint(DIM, ' (the probes\' own deliberately broken requests left out)'));
  // One server throughout, so repeats of a rule are one line with its count, as lint groups them.
  const { groups, rest } = groupFindings(shown, () => run.target);
  const sev = (f: { severity: string }) => paint(f.severity === 'error' ? COLOR.failed : COLOR.warning, f.severity);
  for (const f of [...rest].sort(bySeverity)) out.push(`  ${sev(f)} ${safe(f.rule)} ${paint(DIM, `(exchange ${f.exchange}, ${f.clause})`)}: ${safe(f.message)}`);
  for (const g of [...groups].sort(bySeverity)) out.push(`  ${sev(g)} ${safe(g.rule)} ${paint(DIM, `(${g.findings.length} exchanges from ${g.findings[0].exchange}, ${g.clause})`)}: ${safe(g.findings[0].message)}`);
  out.push('');
  out.push(checkFailed(run, findings) ? paint(COLOR.failed, 'Check failed.') : paint(COLOR.passed, 'Check passed.'));
  return out.join('\n') + '\n';
}
