// Findings as SARIF 2.1.0, for code-scanning dashboards. Locations are logical (an exchange
// in the capture file), since a capture has no source lines.
import type { Finding, Severity } from '../protocol.js';
import type { Rule } from '../lint/rule.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** A SARIF log for one capture. */
export function sarifReport(findings: readonly Finding[], rules: readonly Rule[], path: string, version: string): object {
  const { log, result } = sarifParts(findings, rules, path, version);
  log.runs[0].results = findings.map(result);
  return log;
}

/** The SARIF log as `JSON.stringify(sarifReport(…), null, 2)` writes it, in pieces (a result
 *  at a time): the results are indented as they are made, never as one whole document. */
export function* sarifReportChunks(findings: readonly Finding[], rules: readonly Rule[], path: string, version: string): Generator<string> {
  const { log, result } = sarifParts(findings, rules, path, version);
  const whole = JSON.stringify(log, null, 2);
  // `results` is the last field of the last run, and nothing after it comes from the input.
  const at = whole.lastIndexOf('"results": []') + '"results": '.length;
  if (findings.length === 0) {
    yield whole + '\n';
    return;
  }
  yield whole.slice(0, at) + '[';
  // Inside the log, a result sits four levels deep (8 spaces) and its closing bracket three.
  const indent = '\n        ';
  let i = 0;
  for (const f of findings) yield (i++ === 0 ? '' : ',') + indent + JSON.stringify(result(f), null, 2).replace(/\n/g, indent);
  yield '\n      ]' + whole.slice(at + 2) + '\n';
}

function sarifParts(findings: readonly Finding[], rules: readonly Rule[], path: string, version: string) {
  const used = new Set(findings.map((f) => f.rule));
  const driverRules = rules.filter((r) => used.has(r.id)).map((r) => ({
    id: r.id,
    shortDescription: { text: r.title },
    help: { text: `${r.title} (spec clause ${r.clause}; rule catalogue: lint-rules.md)` },
    defaultConfiguration: { level: LEVEL[r.severity] },
    properties: { tier: r.tier, clause: r.clause },
  }));
  const index = new Map(driverRules.map((r, i) => [r.id, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'mrtr-inspector', version, rules: driverRules } },
      artifacts: [{ location: { uri: path } }],
      results: [] as object[],
    }],
  };
  const result = (f: Finding) => ({
    ruleId: f.rule,
    ...(index.has(f.rule) ? { ruleIndex: index.get(f.rule) } : {}),
    level: LEVEL[f.severity],
    message: { text: `${f.message} [${f.clause}]` },
    locations: [{
      physicalLocation: { artifactLocation: { uri: path, index: 0 } },
      logicalLocations: [{ name: `exchange ${f.exchange}`, fullyQualifiedName: `exchange[${f.exchange}]`, kind: 'object' }],
    }],
    properties: { exchange: f.exchange, conversation: f.conversation, clause: f.clause },
  });
  return { log, result };
}
