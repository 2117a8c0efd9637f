// Where a tamper subject comes from: a captured round (its exchange, and the retry that
// followed it when there was one) or a round of the step-through session.
import type { Conversation, ExchangeRecord } from '../protocol.js';
import { decodeExchange } from '../decode/exchange.js';
import { asObject, own } from '../decode/meta.js';
import { defaultResponse } from './answers.js';
import { builtFromRecord, readRound } from './exchange.js';

/** Re-exported for importers that found it here first; it lives with the other record helpers. */
export { builtFromRecord };
import type { StepperState } from './stepper.js';
import type { TamperSubject } from './tamper.js';
import type { InputRequest } from './types.js';

/**
 * The subject of a captured round: `round` is the exchange whose answer issued the token;
 * `retry`, when captured, gives the answers to send (else each question gets a default answer).
 */
export function tamperSubjectFromRecords(round: ExchangeRecord, retry?: ExchangeRecord, extra: Partial<Pick<TamperSubject, 'otherTarget' | 'foreignToken' | 'url'>> = {}): TamperSubject | { error: string } {
  const request = builtFromRecord(round);
  if (!request) return { error: 'the exchange carries no JSON-RPC request' };
  const answer = decodeExchange(round).received.find((m) => m.kind === 'result' && m.id === request.body.id)?.result;
  if (!answer || typeof own(answer, 'requestState') !== 'string') return { error: 'this round issued no requestState: pick a round whose answer carries one' };
  const retried = retry ? builtFromRecord(retry) : null;
  const fromRetry = asObject(own(retried?.body.params, 'inputResponses'));
  // What the genuine token got: a changed token answered the same way changed nothing.
  const genuine = retry && retried && retry.response ? readRound(retry, retried.body.id) : undefined;
  return {
    url: extra.url ?? round.request.url, request, answer, inputResponses: fromRetry ?? defaults(answer), recordId: round.id,
    ...(genuine ? { genuine } : {}),
    ...(extra.otherTarget ? { otherTarget: extra.otherTarget } : {}), ...(extra.foreignToken !== undefined ? { foreignToken: extra.foreignToken } : {}),
  };
}

/** The subject of a step-through round whose answer issued a token (answers: those its retry sent). */
export function tamperSubjectFromStep(state: StepperState, roundIndex: number, url: string, extra: Partial<Pick<TamperSubject, 'otherTarget' | 'foreignToken'>> = {}): TamperSubject | { error: string } {
  const round = state.rounds[roundIndex];
  if (!round) return { error: `no round ${roundIndex}` };
  const retry = state.rounds.find((r) => r.parent === roundIndex);
  const subject = tamperSubjectFromRecords(round.record, retry?.record, { ...extra, url });
  if ('error' in subject || retry || roundIndex !== state.current) return subject;
  // Paused at this round: the answers given so far are the ones to send.
  return Object.keys(state.answers).length > 0 ? { ...subject, inputResponses: { ...subject.inputResponses, ...state.answers } } : subject;
}

function defaults(answer: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(asObject(own(answer, 'inputRequests')) ?? {})) {
    const req = asObject(v);
    if (req) out[k] = defaultResponse(req as unknown as InputRequest);
  }
  return out;
}

/** A token the server issued to another chain (another tool, prompt or resource; the newest
 *  one), for the "another chain's token" test; undefined when the capture has none. */
export function foreignTokenFor(conversations: readonly Conversation[], self: { method: string; name: string | null }): string | undefined {
  let best: { t: number; token: string } | undefined;
  for (const c of conversations) {
    if (c.method === self.method && c.name === self.name) continue;
    for (const r of c.rounds) if (r.stateIssued !== null && (!best || (r.answeredAt ?? r.sentAt) >= best.t)) best = { t: r.answeredAt ?? r.sentAt, token: r.stateIssued };
  }
  return best?.token;
}
