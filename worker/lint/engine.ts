// Runs every rule over an analysed capture and collects findings in a stable order.
import type { Conversation, Finding, Severity } from '../protocol.js';
import type { LintContext, Rule } from './rule.js';

/** Runs `rules` over the context. A rule that throws is a bug: it becomes an error finding
 *  on exchange 0 rather than taking the whole run down. */
export function runRules(rules: readonly Rule[], ctx: LintContext, exchangeSeqs: readonly number[]): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
    const emit = (conversation: Conversation | null) => (d: { exchange: number; message: string; conversation?: string | null; severity?: Severity }) => {
      findings.push({
        rule: rule.id,
        severity: d.severity ?? rule.severity,
        exchange: d.exchange,
        conversation: d.conversation !== undefined ? d.conversation : conversation ? conversation.id : firstConversationId(ctx, d.exchange),
        message: d.message,
        clause: rule.clause,
      });
    };
    try {
      if (rule.scope === 'conversation') {
        for (const c of ctx.conversations) rule.check(c, ctx, emit(c));
      } else {
        const report = emit(null);
        for (const seq of exchangeSeqs) rule.check(ctx.decoded(seq), ctx.record(seq), ctx, report);
      }
    } catch (err) {
      findings.push({
        rule: rule.id, severity: 'error', exchange: exchangeSeqs[0] ?? 0, conversation: null,
        message: `internal error in rule ${rule.id}: ${err instanceof Error ? err.message : String(err)} (please report this)`,
        clause: rule.clause,
      });
    }
  }
  findings.sort((a, b) => a.exchange - b.exchange || a.rule.localeCompare(b.rule) || (a.conversation ?? '').localeCompare(b.conversation ?? ''));
  return findings;
}

function firstConversationId(ctx: LintContext, seq: number): string | null {
  const cs = ctx.conversationsOf(seq);
  return cs.length > 0 ? cs[0].id : null;
}
