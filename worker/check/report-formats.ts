// The check as JSON, JUnit (one test case per target per probe) and SARIF (failed and
// warning probes as results, beside the lint findings on the check's traffic).
import type { Finding } from '../protocol.js';
import type { Rule } from '../lint/rule.js';
import { xmlEscape } from '../report/junit.js';
import { sarifReport } from '../report/sarif.js';
import { checkFailed } from './report-text.js';
import type { CheckRun, ProbeId } from './types.js';
import { PROBE_SPECS } from './verdicts.js';

/** The JSON document `check --format json` prints. */
export function checkJson(run: CheckRun, findings: readonly Finding[], version: string): string {
  const { records: _records, ...rest } = run;
  return JSON.stringify({ kind: 'check', version: 1, tool: { name: 'mrtr-inspector', version }, passed: !checkFailed(run, findings), ...rest, findings }, null, 2) + '\n';
}

/** JUnit XML: a failed probe is a failure, a warning passes with its detail in system-out, n/a is skipped. */
export function checkJunit(run: CheckRun, findings: readonly Finding[]): string {
  const cases = run.probes.map((p) => {
    const name = `${p.target} :: ${p.probe}`;
    const text = `${p.clause}\nexpected: ${p.expected}\ngot: ${p.detail}`;
    const body = p.verdict === 'failed' ? `<failure message="${xmlEscape(p.detail)}" type="mrtr-check">${xmlEscape(text)}</failure>`
      : p.verdict === 'not-applicable' ? `<skipped message="${xmlEscape(p.detail)}"/>`
      : p.verdict === 'warning' ? `<system-out>${xmlEscape(`warning: ${text}`)}</system-out>` : '';
    return `    <testcase classname="${xmlEscape(p.target)}" name="${xmlEscape(name)}">${body}</testcase>`;
  });
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length > 0) cases.push(`    <testcase classname="lint" name="lint findings on the check's traffic"><failure message="${errors.length} error finding(s)" type="mrtr-lint">${xmlEscape(errors.map((f) => `${f.rule} (exchange ${f.exchange}, ${f.clause}): ${f.message}`).join('\n'))}</failure></testcase>`);
  const failures = run.summary.failed + (errors.length > 0 ? 1 : 0);
  const skipped = run.summary['not-applicable'];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mrtr-inspector check" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="${xmlEscape(run.target)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** SARIF 2.1.0: the lint log of the traffic, with each failed or warning probe as a result of rule `check/<probe>`. */
export function checkSarif(run: CheckRun, findings: readonly Finding[], rules: readonly Rule[], version: string): string {
  const log = sarifReport(findings, rules, run.target, version) as { runs: { tool: { driver: { rules: object[] } }; results: object[] }[] };
  const sarifRun = log.runs[0];
  const used = [...new Set(run.probes.filter((p) => p.verdict === 'failed' || p.verdict === 'warning').map((p) => p.probe))];
  const base = sarifRun.tool.driver.rules.length;
  const index = new Map<ProbeId, number>(used.map((id, i) => [id, base + i]));
  for (const id of used) {
    sarifRun.tool.driver.rules.push({
      id: `check/${id}`, shortDescription: { text: PROBE_SPECS[id].expected },
      help: { text: `${PROBE_SPECS[id].expected} (spec clause ${PROBE_SPECS[id].clause})` }, properties: { clause: PROBE_SPECS[id].clause },
    });
  }
  for (const p of run.probes) {
    if (p.verdict !== 'failed' && p.verdict !== 'warning') continue;
    sarifRun.results.push({
      ruleId: `check/${p.probe}`, ruleIndex: index.get(p.probe), level: p.verdict === 'failed' ? 'error' : 'warning',
      message: { text: `${p.target}: ${p.detail} [${p.clause}]` },
      locations: [{ physicalLocation: { artifactLocation: { uri: run.target, index: 0 } }, logicalLocations: [{ name: p.target, fullyQualifiedName: p.target, kind: 'function' }] }],
      properties: { target: p.target, clause: p.clause, ...(p.run !== undefined ? { run: p.run } : {}) },
    });
  }
  return JSON.stringify(log, null, 2) + '\n';
}
