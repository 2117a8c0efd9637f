// Building one Round from a request message and the answer found in the same exchange.
import type { DecodedExchange, ExchangeRecord, LegacyInteraction, Round, RoundOutcome, RpcMessage } from '../protocol.js';
import { resultType, sameId } from '../decode/jsonrpc.js';
import { asObject, own } from '../decode/meta.js';

/** The answer to `request` among the exchange's received messages: index, or -1. */
export function findAnswer(decoded: DecodedExchange, request: RpcMessage): number {
  if (request.kind !== 'request') return -1;
  const received = decoded.received;
  for (let i = 0; i < received.length; i++) {
    const m = received[i];
    if ((m.kind === 'result' || m.kind === 'error') && sameId(m.id, request.id)) return i;
  }
  return -1;
}

function outcomeOf(record: ExchangeRecord, request: RpcMessage, answer: RpcMessage | undefined): RoundOutcome {
  if (answer) {
    if (answer.kind === 'error') return 'error';
    return resultType(answer) === 'input_required' ? 'input_required' : 'complete';
  }
  if (record.state === 'pending' || record.state === 'streaming') return 'no-response';
  const status = record.response?.status ?? 0;
  if (status >= 400) return 'error';
  // A notification accepted with 202 has nothing more to say; on stdio nothing answers a
  // notification at all, so once written (the record is finished) it is complete.
  if (request.kind === 'notification' && status >= 200 && status < 300) return 'complete';
  if (request.kind === 'notification' && record.stdio !== undefined && record.state === 'complete') return 'complete';
  return 'no-response';
}

/** Keys of an object-valued field, own properties only; null when absent or not an object. */
export function objectKeys(v: unknown): string[] | null {
  const o = asObject(v);
  return o ? Object.keys(o) : null;
}

/** key → method of an `inputRequests` map (method '?' when a value has none). */
export function inputRequestKinds(v: unknown): Record<string, string> | null {
  const o = asObject(v);
  if (!o) return null;
  const out: Record<string, string> = Object.create(null);
  for (const k of Object.keys(o)) {
    const m = own(asObject(o[k]), 'method');
    out[k] = typeof m === 'string' ? m : '?';
  }
  return out;
}

/** Server-initiated requests that arrived on the exchange's own stream (legacy pattern). */
function streamInteractions(decoded: DecodedExchange): LegacyInteraction[] | undefined {
  let out: LegacyInteraction[] | undefined;
  for (const m of decoded.received) {
    if (m.kind === 'request' && m.method !== undefined && m.id !== undefined)
      (out ??= []).push({ exchange: decoded.seq, stream: m.stream, id: m.id, method: m.method, t: m.t });
  }
  return out;
}

/** A round for `decoded.sent[message]`, not yet linked. */
export function buildRound(record: ExchangeRecord, decoded: DecodedExchange, message: number): Round {
  const request = decoded.sent[message];
  const answerIdx = findAnswer(decoded, request);
  const answer = answerIdx >= 0 ? decoded.received[answerIdx] : undefined;
  const params = request.params;
  const stateSent = own(params, 'requestState');
  const stateIssued = answer?.result ? own(answer.result, 'requestState') : undefined;
  const outcome = outcomeOf(record, request, answer);
  const legacy = decoded.sent.length === 1 ? streamInteractions(decoded) : undefined;
  const answeredAt = answer ? answer.t : outcome === 'no-response' ? null : (record.endedAt ?? record.response?.receivedAt ?? null);
  const round: Round = {
    exchange: record.seq,
    message,
    requestId: request.id ?? null,
    answer: answerIdx,
    outcome,
    link: null,
    parent: null,
    inputRequests: outcome === 'input_required' && answer?.result ? inputRequestKinds(own(answer.result, 'inputRequests')) : null,
    inputResponses: objectKeys(own(params, 'inputResponses')),
    stateSent: typeof stateSent === 'string' ? stateSent : null,
    stateIssued: typeof stateIssued === 'string' ? stateIssued : null,
    sentAt: request.t,
    answeredAt,
  };
  // Last, as before: most rounds have none, and a spread would copy every round.
  if (legacy !== undefined) round.legacy = legacy;
  if (record.origin !== undefined) round.origin = record.origin.kind;
  return round;
}

/** Arguments of a request in a canonical form (sorted keys) for equality checks. */
export function canonicalArgs(method: string | undefined, params: Record<string, unknown> | undefined): string {
  if (method !== 'tools/call' && method !== 'prompts/get') return '';
  return canonicalJson(own(params, 'arguments') ?? null);
}

/** JSON with object keys sorted, so equal values give equal strings. */
export function canonicalJson(v: unknown, depth = 0): string {
  if (depth > 64) return '"…"';
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  // Built by concatenation, and keys sorted only when they are not already: this runs
  // several times for every request of a capture (threading, the mock's book).
  let out: string;
  if (Array.isArray(v)) {
    out = '[';
    for (let i = 0; i < v.length; i++) out += (i > 0 ? ',' : '') + canonicalJson(v[i], depth + 1);
    return out + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1] > keys[i]) {
      keys.sort();
      break;
    }
  }
  out = '{';
  for (let i = 0; i < keys.length; i++) out += (i > 0 ? ',' : '') + JSON.stringify(keys[i]) + ':' + canonicalJson(o[keys[i]], depth + 1);
  return out + '}';
}
