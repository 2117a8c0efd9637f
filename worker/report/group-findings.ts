// Repeated findings, grouped: one design decision (an unprotected codec, say) fires the
// same rule on every token a server issues. JSON and SARIF keep one finding per occurrence
// (CI tools want every location); the text report and the page show one line per group.
import type { Finding, Severity } from '../protocol.js';

/** Findings of one rule, at one severity, on one server (endpoint origin + path). */
export interface FindingGroup {
  rule: string;
  severity: Severity;
  clause: string;
  server: string;
  /** In the order they were reported (exchange order within a rule). */
  findings: Finding[];
}

/**
 * Splits findings into groups of at least `min` that share server, rule and severity, and
 * the rest (kept in their original order). Groups come in the order of their first finding.
 * `serverOf` maps an exchange seq to its server; it is called once per finding.
 */
export function groupFindings(findings: readonly Finding[], serverOf: (seq: number) => string, min = 2): { groups: FindingGroup[]; rest: Finding[] } {
  const byKey = new Map<string, FindingGroup>();
  const keys: string[] = new Array(findings.length);
  findings.forEach((f, i) => {
    const server = serverOf(f.exchange);
    const key = `${server}\u0000${f.rule}\u0000${f.severity}`;
    keys[i] = key;
    const g = byKey.get(key);
    if (g) g.findings.push(f);
    else byKey.set(key, { rule: f.rule, severity: f.severity, clause: f.clause, server, findings: [f] });
  });
  const groups: FindingGroup[] = [];
  for (const g of byKey.values()) if (g.findings.length >= min) groups.push(g);
  const rest = findings.filter((_, i) => byKey.get(keys[i])!.findings.length < min);
  return { groups, rest };
}
