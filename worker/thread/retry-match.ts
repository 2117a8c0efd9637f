// What decides whether a retry with no token to echo continues an open chain (design.md,
// Threading, rule 2): the same call (canonical arguments, a compatible client), inputResponses
// keys that answer the chain's last inputRequests, and the chain's state at the retry's send
// time (ended, or failed, by then).
//
// Hazard: a chain's state is judged at the new request's send time, never at the time of
// processing: answers arrive later than requests, and the threader sees them in send order.
// Hazard: a chain is judged by its own latest round, never by a Console experiment that
// joined it (thread/experiments.ts): a tamper test the server answered `complete` or with an
// error must not end the call, nor close it to its client's next retry.
import type { Conversation, Round } from '../protocol.js';
import { requestMeta } from '../decode/meta.js';
import { canonicalArgs, canonicalJson } from './round.js';
import { experimentFlags, hasExperiments, lastCallRound } from './experiments.js';

/**
 * What a retry is compared on: canonical arguments, and clientInfo as sent (JSON text)
 * and in canonical form. Hot path: each is computed on first need, because most requests
 * join by token and are never compared (a class, not closures: one object a request).
 */
export class CallShape {
  private argsText: string | undefined;
  private ci: Record<string, unknown> | null | undefined;
  private ciRaw: string | null | undefined;
  private ciCanonical: string | null | undefined;
  constructor(private readonly method: string, private readonly params: Record<string, unknown> | undefined) {}

  /** The arguments in canonical form. */
  args(): string {
    return (this.argsText ??= canonicalArgs(this.method, this.params));
  }

  private clientInfo(): Record<string, unknown> | null {
    if (this.ci === undefined) this.ci = requestMeta(this.params).clientInfo ?? null;
    return this.ci;
  }

  /** clientInfo as sent (JSON text), or null when the request did not say. */
  clientRaw(): string | null {
    if (this.ciRaw === undefined) {
      const ci = this.clientInfo();
      this.ciRaw = ci ? JSON.stringify(ci) : null;
    }
    return this.ciRaw;
  }

  /** clientInfo in canonical form, or null when the request did not say. */
  clientCanonical(): string | null {
    if (this.ciCanonical === undefined) {
      const ci = this.clientInfo();
      this.ciCanonical = ci ? canonicalJson(ci) : null;
    }
    return this.ciCanonical;
  }
}

/** clientInfo values agree, or one side did not say. JSON text first (the same client
 *  re-sends the same object), canonical form only when the texts differ. */
export function compatible(a: CallShape, b: CallShape): boolean {
  const ra = a.clientRaw();
  const rb = b.clientRaw();
  if (ra === null || rb === null || ra === rb) return true;
  return a.clientCanonical() === b.clientCanonical();
}

/** The index of the chain's tip: its latest round of its own (the latest round when it has
 *  no Console experiments, or is all experiment). */
export function tipIndex(c: Conversation): number {
  return lastCallRound(c.rounds);
}

/** The chain's tip: its latest round of its own, what its client would continue. */
export function lastRound(c: Conversation): Round {
  return c.rounds[tipIndex(c)];
}

/** The round a token echo is judged against: the chain's tip for a token the call issued,
 *  the latest experiment round for one an experiment issued (`round`: the issuing round's
 *  index), so the Console can go on with its experiment after the call itself ended. */
export function sideTip(c: Conversation, round?: number): Round {
  if (round === undefined || !hasExperiments(c.rounds)) return lastRound(c);
  const flags = experimentFlags(c.rounds);
  if (!flags[round]) return lastRound(c);
  return c.rounds[flags.lastIndexOf(true)];
}

/** The chain had ended (its tip answered `complete`) before time `t`. An error is not an
 *  end here: the client may recover with a token the chain issued earlier. `round`: the
 *  round whose token is echoed, when there is one (see `sideTip`). */
export function endedBefore(c: Conversation, t: number, round?: number): boolean {
  const r = sideTip(c, round);
  return r.outcome === 'complete' && r.answeredAt !== null && r.answeredAt <= t;
}

/** The tip ended in an error answered before time `t` (`round` as for `endedBefore`). */
export function failedBefore(c: Conversation, t: number, round?: number): boolean {
  const r = sideTip(c, round);
  return r.outcome === 'error' && r.answeredAt !== null && r.answeredAt <= t;
}

/** How well a retry's inputResponses keys answer the keys a round asked for: 2 exactly
 *  (or neither has any), 1 some of them, 0 none. */
export function keyScore(retryKeys: readonly string[] | null, asked: Record<string, string> | null): number {
  const want = asked ? Object.keys(asked) : [];
  const have = retryKeys ?? [];
  if (want.length === 0 && have.length === 0) return 2;
  const haveSet = new Set(have);
  const hits = want.filter((k) => haveSet.has(k)).length;
  if (hits === want.length && have.length === want.length) return 2;
  return hits > 0 ? 1 : 0;
}
