// What a conversation is, as text: two equal fingerprints mean equal rows and equal
// inputs to lint (its rounds, status, exchanges and the version of each exchange).
import type { Conversation } from '../protocol.js';

/** A conversation as one string; `stamp` gives the version of an exchange. */
export function fingerprint(c: Conversation, stamp: (seq: number) => string): string {
  let s = `${c.id}|${c.status}|${c.method}|${c.name}|${c.era}|${c.client}|${c.replayOf ?? ''}|${c.task ? JSON.stringify(c.task) : ''}|`;
  for (const seq of c.exchanges) s += stamp(seq) + ';';
  for (const r of c.rounds) s += JSON.stringify(r) + ';';
  return s;
}

/** Every token a conversation's rounds sent or issued (with repeats). */
export function* tokensOf(c: Conversation): Iterable<string> {
  for (const r of c.rounds) {
    if (r.stateSent !== null) yield r.stateSent;
    if (r.stateIssued !== null) yield r.stateIssued;
  }
}
