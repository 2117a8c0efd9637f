import { describe, expect, it } from 'vitest';
import { checkJunit, checkSarif } from '../../../worker/check/report-formats.js';
import { checkFailed, checkText } from '../../../worker/check/report-text.js';
import type { CheckRun, ProbeResult } from '../../../worker/check/types.js';
import { PROBE_SPECS } from '../../../worker/check/verdicts.js';
import type { Finding } from '../../../worker/protocol.js';

const probe = (target: string, p: ProbeResult['probe'], verdict: ProbeResult['verdict'], detail: string): ProbeResult => ({ probe: p, target, verdict, ...PROBE_SPECS[p], detail });

const run: CheckRun = {
  target: 'http://127.0.0.1:9/mcp', serverInfo: 'srv 1.0', notes: ['prompts/list: error -32601 Method not found'], records: [], calls: 12, elapsedMs: 1500,
  skipped: [{ target: 'tools/call drop_db', reason: 'annotated destructiveHint: true: may change data' }],
  probes: [
    probe('tools/call a', 'drive', 'passed', '2 rounds: complete'),
    probe('tools/call a', 'token-modified', 'failed', 'the server went on \x1b[31mred'),
    probe('tools/call a', 'arguments-changed', 'warning', 'went on'),
    probe('tools/call b', 'token-expired', 'not-applicable', 'the token carries no expiry'),
  ],
  summary: { passed: 1, failed: 1, warning: 1, 'not-applicable': 1 },
};
const finding = (severity: Finding['severity'], exchange: number): Finding => ({ rule: 'state/no-expiry', severity, exchange, conversation: null, message: 'no expiry', clause: 'mrtr:236' });

describe('check reports', () => {
  it('fails on a failed probe or an error finding, not on warnings', () => {
    expect(checkFailed(run, [])).toBe(true);
    const clean = { ...run, summary: { ...run.summary, failed: 0 } };
    expect(checkFailed(clean, [finding('warning', 1)])).toBe(false);
    expect(checkFailed(clean, [finding('error', 1)])).toBe(true);
  });

  it('prints failed and warning probes by target with expectation and clause, server text made safe', () => {
    const text = checkText(run, [finding('warning', 1), finding('warning', 2)], false);
    expect(text).toContain('12 requests in 1.5 s; 4 probes: 1 failed, 1 warnings, 1 passed, 1 not applicable');
    expect(text).toMatch(/tools\/call a\n {2}✖ failed {3}token-modified {2}M10, M11 \(mrtr:232-233\)\n {13}expected: a requestState with one byte changed/);
    expect(text).not.toContain('\x1b[31m');
    expect(text).toContain('  tools/call drop_db: annotated destructiveHint: true');
    expect(text).toContain('state/no-expiry (2 exchanges from 1, mrtr:236)');
    expect(text.trimEnd().endsWith('Check failed.')).toBe(true);
  });

  it('writes one JUnit case per target per probe: failed a failure, n/a skipped, a warning in system-out', () => {
    const xml = checkJunit(run, []);
    expect(xml).toContain('<testsuites name="mrtr-inspector check" tests="4" failures="1">');
    expect(xml).toContain('name="tools/call a :: token-modified"><failure');
    expect(xml).toContain('name="tools/call b :: token-expired"><skipped');
    expect(xml).toContain('name="tools/call a :: arguments-changed"><system-out>warning: ');
  });

  it('adds failed and warning probes to the SARIF log with their levels', () => {
    const log = JSON.parse(checkSarif(run, [], [], '0.1.0'));
    expect(log.runs[0].results.map((r: { ruleId: string; level: string }) => `${r.ruleId} ${r.level}`)).toEqual(['check/token-modified error', 'check/arguments-changed warning']);
    expect(log.runs[0].results[0].ruleIndex).toBe(0);
  });
});
