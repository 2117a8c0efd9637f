// Which rounds of a conversation are the Console's experiments rather than the call itself.
// A fork, an edit, a re-send or a tamper test is something the developer tried from the
// inspector; it joins the call it was made from (as a branch, or by the token it echoes),
// but it is not what the call's client did. So the call's status, its round count and the
// findings it is blamed for come from its own rounds only; an experiment's rounds, and every
// round that continues one, are judged as the experiment's result (design.md, Trust).
import type { OriginKind } from '../protocol.js';

/** The Console actions whose sends are experiments. `call` and `step` are the Console acting
 *  as a plain client (its call is the conversation itself); `discovery` and `replay` re-enact
 *  or list, so they are judged as any traffic. */
export const EXPERIMENT_ORIGINS: ReadonlySet<OriginKind> = new Set<OriginKind>(['fork', 'edit', 'resend', 'tamper']);

/** An origin that makes its exchange an experiment. */
export function isExperimentOrigin(kind: OriginKind | undefined): boolean {
  return kind !== undefined && EXPERIMENT_ORIGINS.has(kind);
}

/** What the split needs of a round. */
export interface ExperimentRound {
  parent: number | null;
  origin?: OriginKind;
}

/** Whether any round is an experiment (the cheap test most conversations stop at). */
export function hasExperiments(rounds: readonly ExperimentRound[]): boolean {
  for (const r of rounds) if (isExperimentOrigin(r.origin)) return true;
  return false;
}

/**
 * For each round, whether it belongs to an experiment: its own origin is one, or the round
 * it continues (`parent`) does. A parent that is missing or not earlier (malformed input)
 * is read as none.
 */
export function experimentFlags(rounds: readonly ExperimentRound[]): boolean[] {
  const out = new Array<boolean>(rounds.length);
  for (let i = 0; i < rounds.length; i++) {
    const r = rounds[i];
    const p = r.parent;
    out[i] = isExperimentOrigin(r.origin) || (p !== null && p >= 0 && p < i && out[p]);
  }
  return out;
}

/**
 * The indices of the call's own rounds (ascending). A conversation made only of experiments
 * (a tamper test that threads on its own, an edit of a first request) is its own call: then
 * every round counts, and `experiment` says so.
 */
export function callRounds(rounds: readonly ExperimentRound[]): { own: number[]; experiment: boolean } {
  const all = () => rounds.map((_, i) => i);
  if (!hasExperiments(rounds)) return { own: all(), experiment: false };
  const flags = experimentFlags(rounds);
  const own: number[] = [];
  flags.forEach((f, i) => { if (!f) own.push(i); });
  return own.length > 0 ? { own, experiment: false } : { own: all(), experiment: true };
}

/** The index of the call's last own round (what its status is read from); -1 when it has none. */
export function lastCallRound(rounds: readonly ExperimentRound[]): number {
  if (!hasExperiments(rounds)) return rounds.length - 1;
  const { own } = callRounds(rounds);
  return own.length > 0 ? own[own.length - 1] : -1;
}
