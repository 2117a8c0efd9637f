// Runs every rule over an analysed capture and collects findings in a stable order.
//
// Subjects outside, rules inside: every rule looks at one conversation (or exchange)
// before the engine moves on, so a host that decodes exchanges lazily (the CLI on big
// captures) decodes each one about once instead of once per rule.
import type { Conversation, Finding, Severity } from '../protocol.js';
import type { ConversationRule, ExchangeRule, FindingDraft, LintContext, Rule } from './rule.js';

/** Runs `rules` over the context. A rule that throws is a bug: it is reported once as an
 *  error finding (with the subject it failed on) and the run goes on with the rest. */
export function runRules(rules: readonly Rule[], ctx: LintContext, exchangeSeqs: readonly number[]): Finding[] {
  const findings: Finding[] = [];
  const broken = new Set<string>();
  // One report function for the whole run (not a closure per rule and subject: on 100k
  // exchanges that would be millions of short-lived functions).
  let rule: Rule = rules[0];
  let subject: Conversation | null = null;
  const report = (d: FindingDraft) => {
    findings.push({
      rule: rule.id,
      severity: d.severity ?? rule.severity,
      exchange: d.exchange,
      conversation: d.conversation !== undefined ? d.conversation : subject ? subject.id : firstConversationId(ctx, d.exchange),
      message: d.message,
      clause: rule.clause,
    });
  };
  const fail = (exchange: number, conversation: string | null, err: unknown) => {
    if (broken.has(rule.id)) return;
    broken.add(rule.id);
    findings.push({
      rule: rule.id, severity: 'error', exchange, conversation,
      message: `internal error in rule ${rule.id}: ${err instanceof Error ? err.message : String(err)} (please report this)`,
      clause: rule.clause,
    });
  };

  const conversationRules = rules.filter((r): r is ConversationRule => r.scope === 'conversation');
  const exchangeRules = rules.filter((r): r is ExchangeRule => r.scope === 'exchange');
  for (const c of ctx.conversations) {
    subject = c;
    for (const r of conversationRules) {
      rule = r;
      try {
        r.check(c, ctx, report);
      } catch (err) {
        fail(c.rounds[0]?.exchange ?? 0, c.id, err);
      }
    }
  }
  subject = null;
  for (const seq of exchangeSeqs) {
    const decoded = ctx.decoded(seq);
    const record = ctx.record(seq);
    const transport = record.stdio ? 'stdio' : 'http';
    for (const r of exchangeRules) {
      if (r.transport !== undefined && r.transport !== transport) continue;
      rule = r;
      try {
        r.check(decoded, record, ctx, report);
      } catch (err) {
        fail(seq, firstConversationId(ctx, seq), err);
      }
    }
  }
  findings.sort((a, b) => a.exchange - b.exchange || a.rule.localeCompare(b.rule) || (a.conversation ?? '').localeCompare(b.conversation ?? '') || a.message.localeCompare(b.message));
  return findings;
}

function firstConversationId(ctx: LintContext, seq: number): string | null {
  const cs = ctx.conversationsOf(seq);
  return cs.length > 0 ? cs[0].id : null;
}
