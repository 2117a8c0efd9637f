// Where an exchange sits in the devtools view: its conversation and the round it carried.
// The Console's "Show it" and the page's links name exchanges; the page selects places.
import type { Conversation } from '../protocol.js';

/** A conversation and the index (in its rounds) of the exchange's first round. */
export interface ExchangePlace {
  conversation: string;
  round: number;
}

/**
 * The place of exchange `id`, or null when no conversation claims it (an exchange with no
 * JSON-RPC request, or one not in the session). `records` maps exchange ids to seqs.
 */
export function placeOfExchange(
  conversations: Iterable<Conversation>,
  records: readonly { id: string; seq: number }[],
  id: string,
): ExchangePlace | null {
  const seq = records.find((r) => r.id === id)?.seq;
  if (seq === undefined) return null;
  for (const c of conversations) {
    if (!c.exchanges.includes(seq)) continue;
    const round = c.rounds.findIndex((r) => r.exchange === seq);
    return { conversation: c.id, round: Math.max(0, round) };
  }
  return null;
}
