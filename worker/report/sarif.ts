// Findings as SARIF 2.1.0, for code-scanning dashboards. Locations are logical (an exchange
// in the capture file), since a capture has no source lines.
import type { Finding, Severity } from '../protocol.js';
import type { Rule } from '../lint/rule.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** A SARIF log for one capture. */
export function sarifReport(findings: readonly Finding[], rules: readonly Rule[], path: string, version: string): object {
  const used = new Set(findings.map((f) => f.rule));
  const driverRules = rules.filter((r) => used.has(r.id)).map((r) => ({
    id: r.id,
    shortDescription: { text: r.title },
    help: { text: `${r.title} (spec clause ${r.clause}; rule catalogue: lint-rules.md)` },
    defaultConfiguration: { level: LEVEL[r.severity] },
    properties: { tier: r.tier, clause: r.clause },
  }));
  const index = new Map(driverRules.map((r, i) => [r.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'mrtr-inspector', version, rules: driverRules } },
      artifacts: [{ location: { uri: path } }],
      results: findings.map((f) => ({
        ruleId: f.rule,
        ...(index.has(f.rule) ? { ruleIndex: index.get(f.rule) } : {}),
        level: LEVEL[f.severity],
        message: { text: `${f.message} [${f.clause}]` },
        locations: [{
          physicalLocation: { artifactLocation: { uri: path, index: 0 } },
          logicalLocations: [{ name: `exchange ${f.exchange}`, fullyQualifiedName: `exchange[${f.exchange}]`, kind: 'object' }],
        }],
        properties: { exchange: f.exchange, conversation: f.conversation, clause: f.clause },
      })),
    }],
  };
}
