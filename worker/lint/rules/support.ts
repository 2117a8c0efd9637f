// Small pure helpers shared by the rule files. Not a rule: rules/index.ts never lists it.
// Everything here reads hostile bodies through own()/asObject() and never throws.
import type { Conversation, DecodedExchange, JsonRpcId, Round, RpcMessage, TokenReading } from '../../protocol.js';
import type { LintContext } from '../rule.js';
import { asObject, own } from '../../decode/meta.js';

export const MODERN = '2026-07-28';

/** A request POST of the 2026 era (http/* and meta/* rules look only at these). */
export function isModernPost(d: DecodedExchange, method: string): boolean {
  return d.era === MODERN && method.toUpperCase() === 'POST';
}

/** The JSON-RPC requests (not notifications, not responses) a POST body carried. */
export function requestsOf(d: DecodedExchange): RpcMessage[] {
  return d.sent.filter((m) => m.kind === 'request');
}

/** JSON-RPC ids are equal only with the same type and value ("1" is not 1). */
export function sameRpcId(a: JsonRpcId | undefined, b: JsonRpcId | undefined): boolean {
  return a !== undefined && b !== undefined && a === b;
}

/** The request a received result/error answers: same id, else the only request sent. */
export function requestFor(d: DecodedExchange, answer: RpcMessage): RpcMessage | undefined {
  const reqs = requestsOf(d);
  return reqs.find((r) => sameRpcId(r.id, answer.id)) ?? (reqs.length === 1 ? reqs[0] : undefined);
}

/** Received results whose `resultType` is `input_required`. */
export function inputRequiredResults(d: DecodedExchange): RpcMessage[] {
  return d.received.filter((m) => m.kind === 'result' && own(m.result, 'resultType') === 'input_required');
}

/** `[key, value]` pairs of an object-valued field, own keys only; [] when not an object. */
export function entriesOf(v: unknown): [string, unknown][] {
  const o = asObject(v);
  return o ? Object.keys(o).map((k) => [k, o[k]] as [string, unknown]) : [];
}

/** The embedded `{method, params}` objects of an InputRequiredResult's `inputRequests`. */
export function inputRequestsOf(result: Record<string, unknown> | undefined): [string, Record<string, unknown> | undefined][] {
  return entriesOf(own(result, 'inputRequests')).map(([k, v]) => [k, asObject(v)]);
}

/** A short, quoted rendering of a value for messages (never more than ~60 chars). */
export function show(v: unknown): string {
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 60 ? s.slice(0, 57) + '…' : s;
}

/** A string cut to ~60 chars for messages. */
export function clip(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + '…' : s;
}

/** "tools/call 'book_flight' (id 7)" for a request message. */
export function describe(msg: RpcMessage | undefined): string {
  if (!msg) return 'request';
  const name = own(msg.params, 'name') ?? own(msg.params, 'uri');
  const target = typeof name === 'string' ? ` ${show(name)}` : '';
  return `${msg.method ?? '?'}${target} (id ${show(msg.id ?? null)})`;
}

/** "round 2" with 1-based numbering, as the UI shows rounds. */
export function roundLabel(i: number): string {
  return `round ${i + 1}`;
}

/** A retry and the round it retries. */
export interface RetryPair {
  prev: Round;
  round: Round;
  /** Index of `round` in the conversation. */
  index: number;
  /** Index of `prev` in the conversation. */
  prevIndex: number;
}

/**
 * Retries whose link to the previous round we trust. Hazard: an `ambiguous` round was
 * placed in one of several candidate chains without evidence, so comparing it with "its"
 * previous round would report a guess as a violation; those rounds are skipped. A round
 * that follows anything but an `input_required` answer is not an MRTR retry either.
 */
export function retryPairs(c: Conversation): RetryPair[] {
  // Most conversation rules walk the same pairs: compute them once per conversation object.
  let pairs = pairMemo.get(c);
  if (pairs === undefined) pairMemo.set(c, (pairs = computeRetryPairs(c)));
  return pairs;
}

const pairMemo = new WeakMap<Conversation, RetryPair[]>();

function computeRetryPairs(c: Conversation): RetryPair[] {
  const out: RetryPair[] = [];
  for (let i = 1; i < c.rounds.length; i++) {
    const round = c.rounds[i];
    // A round continues its parent (the round whose token it echoed), which is the one
    // before it except where a re-used token or a fork branched the chain.
    const prevIndex = round.parent ?? i - 1;
    const prev = c.rounds[prevIndex];
    if (round.link === 'ambiguous' || prev.outcome !== 'input_required') continue;
    out.push({ prev, prevIndex, round, index: i });
  }
  return out;
}

/**
 * True when round `index` of `c` is the first place `token` was issued, so that state/*
 * rules report each distinct token once (at the exchange whose answer issued it).
 */
export function isFirstIssue(ctx: LintContext, c: Conversation, index: number, token: string): boolean {
  const origins = ctx.issuedBy(token);
  if (origins.length === 0) return true;
  let first = origins[0];
  for (const o of origins) {
    const a = o.conversation.rounds[o.round]?.exchange ?? Infinity;
    const b = first.conversation.rounds[first.round]?.exchange ?? Infinity;
    if (a < b) first = o;
  }
  return first.conversation.id === c.id && first.round === index;
}

/**
 * Each distinct token a conversation's answers issued, once (at the round that first
 * issued it in the capture), with its reading: what every state/* rule walks.
 */
export function issuedTokens(c: Conversation, ctx: LintContext): { round: Round; index: number; reading: TokenReading }[] {
  const out: { round: Round; index: number; reading: TokenReading }[] = [];
  c.rounds.forEach((round, index) => {
    const token = round.stateIssued;
    if (token === null || !isFirstIssue(ctx, c, index, token)) return;
    const reading = ctx.token(token);
    if (reading) out.push({ round, index, reading });
  });
  return out;
}

/** JSON with object keys sorted, so equal values give equal strings (depth-capped). */
export function canonical(v: unknown, depth = 0): string {
  if (depth > 64) return '"…"';
  if (Array.isArray(v)) return '[' + v.map((x) => canonical(x, depth + 1)).join(',') + ']';
  const o = asObject(v);
  if (o) return '{' + Object.keys(o).sort().map((k) => JSON.stringify(k) + ':' + canonical(o[k], depth + 1)).join(',') + '}';
  return JSON.stringify(v) ?? 'null';
}

/** Byte offset (UTF-8) of the first difference between two strings. */
export function firstDiffByte(a: string, b: string): number {
  let i = 0;
  const n = Math.min(a.length, b.length);
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return new TextEncoder().encode(a.slice(0, i)).length;
}

/** What kind of InputResponse a value looks like, by its distinguishing members. */
export type ResponseKind = 'elicit' | 'sampling' | 'roots' | 'wrapped' | 'unknown' | 'not-object';

export function responseKind(v: unknown): ResponseKind {
  const o = asObject(v);
  if (!o) return 'not-object';
  if (own(o, 'action') !== undefined) return 'elicit';
  if (own(o, 'roots') !== undefined) return 'roots';
  if (own(o, 'model') !== undefined || own(o, 'role') !== undefined) return 'sampling';
  // The `{method, result}` envelope some clients send; the SDK drops these entries.
  if (own(o, 'method') !== undefined && own(o, 'result') !== undefined) return 'wrapped';
  return 'unknown';
}

export const KIND_FOR_METHOD: Readonly<Record<string, ResponseKind>> = {
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** One inputResponses value with the embedded request it answers. */
export interface AnsweredInput {
  pair: RetryPair;
  key: string;
  /** The embedded `{method, params}` of the previous answer's `inputRequests[key]`. */
  request: Record<string, unknown>;
  method: string;
  params: Record<string, unknown> | undefined;
  value: unknown;
}

/**
 * Every `inputResponses[k]` of a trusted retry whose previous round asked for `k` with
 * `method`, skipping values that look like another kind (mrtr/response-kind-mismatch
 * reports those, so the shape rules do not pile on).
 */
export function answeredInputs(c: Conversation, ctx: LintContext, method: string): AnsweredInput[] {
  const out: AnsweredInput[] = [];
  const want = KIND_FOR_METHOD[method];
  for (const pair of retryPairs(c)) {
    const responses = asObject(own(ctx.request(pair.round)?.params, 'inputResponses'));
    const requests = asObject(own(ctx.answer(pair.prev)?.result, 'inputRequests'));
    if (!responses || !requests) continue;
    for (const key of Object.keys(responses)) {
      const request = asObject(own(requests, key));
      if (!request || own(request, 'method') !== method) continue;
      const value = responses[key];
      const kind = responseKind(value);
      if (kind !== want && kind !== 'unknown') continue;
      out.push({ pair, key, request, method, params: asObject(own(request, 'params')), value });
    }
  }
  return out;
}

/** Every embedded input request of `method` in the exchange's input_required answers. */
export function embeddedRequests(d: DecodedExchange, method: string): { key: string; params: Record<string, unknown> | undefined; answer: RpcMessage }[] {
  const out: { key: string; params: Record<string, unknown> | undefined; answer: RpcMessage }[] = [];
  for (const answer of inputRequiredResults(d)) {
    for (const [key, req] of inputRequestsOf(answer.result)) {
      if (req && own(req, 'method') === method) out.push({ key, params: asObject(own(req, 'params')), answer });
    }
  }
  return out;
}
