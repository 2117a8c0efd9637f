// Runs rules over an analysed capture, one subject (a conversation or an exchange) at a
// time, and puts findings in their stable order.
//
// Subjects outside, rules inside: every rule looks at one conversation (or exchange)
// before the runner moves on, so a host that decodes exchanges lazily (the CLI on big
// captures) decodes each one about once instead of once per rule. The incremental engine
// (engine/analysis-engine.ts) re-checks only the subjects a change can affect and keeps
// each subject's findings, so a subject's findings depend on nothing but the context.
import type { Conversation, Finding } from '../protocol.js';
import type { ConversationRule, ExchangeRule, FindingDraft, LintContext, Rule } from './rule.js';
import { experimentFlags, hasExperiments, isExperimentOrigin } from '../thread/experiments.js';

/** What checking one subject gave: findings, and the rules that threw on it (a bug).
 *  Read-only: an empty answer is one shared object. */
export interface SubjectFindings {
  findings: Finding[];
  /** One error finding per rule that threw here; a run reports each rule's first only. */
  failures: Finding[];
}

// What most subjects give: nothing. Shared, so 100k clean subjects keep no lists each.
const NOTHING: SubjectFindings = Object.freeze({ findings: Object.freeze([]) as unknown as Finding[], failures: Object.freeze([]) as unknown as Finding[] });

/** The rules of a list, split by scope once. */
export class RuleRunner {
  readonly conversationRules: readonly ConversationRule[];
  readonly exchangeRules: readonly ExchangeRule[];
  // One reporter for every subject: a subject is checked by every rule before the next
  // starts, and most subjects report nothing, so nothing is made for them.
  readonly #rep = new Reporter();
  /** The exchange rules that apply to each transport. */
  readonly #exchangeRulesOn: Readonly<Record<'http' | 'stdio', readonly ExchangeRule[]>>;
  constructor(readonly rules: readonly Rule[]) {
    this.conversationRules = rules.filter((r): r is ConversationRule => r.scope === 'conversation');
    this.exchangeRules = rules.filter((r): r is ExchangeRule => r.scope === 'exchange');
    const on = (t: 'http' | 'stdio') => this.exchangeRules.filter((r) => r.transport === undefined || r.transport === t);
    this.#exchangeRulesOn = { http: on('http'), stdio: on('stdio') };
  }

  /** Every conversation rule over one conversation. */
  conversation(ctx: LintContext, c: Conversation): SubjectFindings {
    const rep = this.#rep.start(ctx, c);
    for (const r of this.conversationRules) {
      rep.rule = r;
      try {
        r.check(c, ctx, rep.report);
      } catch (err) {
        rep.failed(failure(r, c.rounds[0]?.exchange ?? 0, c.id, err));
      }
    }
    return rep.done();
  }

  /** Every exchange rule over one exchange. */
  exchange(ctx: LintContext, seq: number): SubjectFindings {
    const decoded = ctx.decoded(seq);
    const record = ctx.record(seq);
    const rep = this.#rep.start(ctx, null);
    for (const r of this.#exchangeRulesOn[record.stdio ? 'stdio' : 'http']) {
      rep.rule = r;
      try {
        r.check(decoded, record, ctx, rep.report);
      } catch (err) {
        rep.failed(failure(r, seq, firstConversationId(ctx, seq), err));
      }
    }
    return rep.done();
  }
}

/** Runs `rules` over the whole context. A rule that throws is a bug: it is reported once as
 *  an error finding (with the first subject it failed on) and the run goes on. */
export function runRules(rules: readonly Rule[], ctx: LintContext, exchangeSeqs: readonly number[]): Finding[] {
  const runner = new RuleRunner(rules);
  const parts: SubjectFindings[] = [];
  for (const c of ctx.conversations) parts.push(runner.conversation(ctx, c));
  for (const seq of exchangeSeqs) parts.push(runner.exchange(ctx, seq));
  return collectFindings(parts);
}

/** The findings of every subject, in subject order (conversations first, then exchanges),
 *  with each broken rule reported once, sorted into the stable order. */
export function collectFindings(parts: Iterable<SubjectFindings>): Finding[] {
  const findings: Finding[] = [];
  const broken = new Set<string>();
  for (const p of parts) {
    for (const f of p.findings) findings.push(f);
    for (const f of p.failures) {
      if (broken.has(f.rule)) continue;
      broken.add(f.rule);
      findings.push(f);
    }
  }
  return sortFindings(findings);
}

/** Sorts findings in place into their stable order and returns them. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => a.exchange - b.exchange || a.rule.localeCompare(b.rule) || (a.conversation ?? '').localeCompare(b.conversation ?? '') || a.message.localeCompare(b.message));
}

// One report function for every subject a runner checks, not a closure per rule and
// subject (on 100k exchanges that would be millions of short-lived functions), and lists
// made only for a subject that reports something. Hazard: rules report synchronously,
// while their subject is being checked; `start` begins the next subject.
// It also keeps client rules (`about: 'client'`) off the Console's experiments: a finding
// of one at an exchange that is an experiment (its round in the subject descends from a
// fork, edit, re-send or tamper test, or its record says the Console made it so) is dropped.
class Reporter {
  rule: Rule | null = null;
  #ctx: LintContext | null = null;
  #subject: Conversation | null = null;
  #findings: Finding[] | null = null;
  #failures: Finding[] | null = null;
  /** Exchanges of the subject's rounds that are experiments; null until a client rule asks. */
  #experiments: Set<number> | null = null;

  start(ctx: LintContext, subject: Conversation | null): this {
    this.#ctx = ctx;
    this.#subject = subject;
    this.#findings = null;
    this.#failures = null;
    this.#experiments = null;
    return this;
  }

  /** The exchange is a Console experiment, as seen from the subject being checked. */
  #experiment(seq: number): boolean {
    const subject = this.#subject;
    if (subject !== null) {
      if (this.#experiments === null) {
        this.#experiments = new Set();
        if (hasExperiments(subject.rounds)) {
          const flags = experimentFlags(subject.rounds);
          subject.rounds.forEach((r, i) => { if (flags[i]) this.#experiments!.add(r.exchange); });
        }
      }
      if (this.#experiments.has(seq)) return true;
    }
    try {
      return isExperimentOrigin(this.#ctx!.record(seq).origin?.kind);
    } catch {
      return false; // a seq not in the capture: nothing says it is one
    }
  }

  failed(f: Finding): void {
    (this.#failures ??= []).push(f);
  }

  /** The subject's findings (the shared empty answer when there are none). */
  done(): SubjectFindings {
    const out = this.#findings === null && this.#failures === null ? NOTHING : { findings: this.#findings ?? [], failures: this.#failures ?? [] };
    this.#ctx = null;
    this.#subject = null;
    this.#findings = null;
    this.#failures = null;
    this.#experiments = null;
    return out;
  }

  readonly report = (d: FindingDraft): void => {
    const rule = this.rule!;
    if (rule.about === 'client' && this.#experiment(d.exchange)) return;
    const subject = this.#subject;
    (this.#findings ??= []).push({
      rule: rule.id,
      severity: d.severity ?? rule.severity,
      exchange: d.exchange,
      conversation: d.conversation !== undefined ? d.conversation : subject ? subject.id : firstConversationId(this.#ctx!, d.exchange),
      message: d.message,
      clause: rule.clause,
    });
  };
}

function failure(rule: Rule, exchange: number, conversation: string | null, err: unknown): Finding {
  return {
    rule: rule.id, severity: 'error', exchange, conversation,
    message: `internal error in rule ${rule.id}: ${err instanceof Error ? err.message : String(err)} (please report this)`,
    clause: rule.clause,
  };
}

function firstConversationId(ctx: LintContext, seq: number): string | null {
  const cs = ctx.conversationsOf(seq);
  return cs.length > 0 ? cs[0].id : null;
}
