// Hand-made conversations for the engine's unit tests: only the fields the engine's indexes
// and scopes read are meaningful (exchanges, send and answer times, tokens, method).
import type { Conversation, Round } from '../../../worker/protocol.js';

/** A round of exchange `exchange`, sent at `sentAt` and answered a tick later. */
export function round(exchange: number, sentAt: number, tokens: { sent?: string; issued?: string } = {}): Round {
  return {
    exchange, message: 0, requestId: exchange, answer: 0, outcome: 'input_required', link: 'state', parent: null,
    inputRequests: null, inputResponses: null, stateSent: tokens.sent ?? null, stateIssued: tokens.issued ?? null, sentAt, answeredAt: sentAt + 1,
  };
}

/** A conversation of these rounds (its exchanges are theirs). */
export function conv(id: string, rounds: Round[], method = 'tools/call'): Conversation {
  return { id, method, name: 'a', era: '2026-07-28', client: null, exchanges: [...new Set(rounds.map((r) => r.exchange))], status: 'in-progress', rounds };
}

/** Pushes a round onto a conversation, as the threader grows one between re-threads. */
export function grow(c: Conversation, r: Round): void {
  c.rounds.push(r);
  if (!c.exchanges.includes(r.exchange)) c.exchanges.push(r.exchange);
}
