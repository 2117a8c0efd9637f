// Helpers about input requests and the retries answering them, shared by the elicit/*,
// sampling/*, roots/* and mrtr/response-* rules. Not a rule: rules/index.ts never lists it.
// Hot paths: several rules ask in turn about the same exchange or conversation, so each
// helper remembers its last subject's answers (held weakly where a context is involved).
// Hazard: the lists returned are shared; read them, never change them.
import type { Conversation, DecodedExchange, Round, RpcMessage } from '../../protocol.js';
import type { LintContext } from '../rule.js';
import { asObject, own } from '../../decode/meta.js';
import { inputRequiredResults, NONE, retryPairs, type RetryPair } from './support.js';

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
export function answeredInputs(c: Conversation, ctx: LintContext, method: string): readonly AnsweredInput[] {
  const memo = ctx.memo(ANSWERED, (): { of: Conversation | null; byMethod: Map<string, readonly AnsweredInput[]> } => ({ of: null, byMethod: new Map() }));
  if (memo.of !== c) {
    memo.of = c;
    memo.byMethod = new Map();
  }
  let list = memo.byMethod.get(method);
  if (list === undefined) memo.byMethod.set(method, (list = computeAnsweredInputs(c, ctx, method)));
  return list;
}

const ANSWERED = {};

function computeAnsweredInputs(c: Conversation, ctx: LintContext, method: string): readonly AnsweredInput[] {
  let out: AnsweredInput[] | undefined;
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
      (out ??= []).push({ pair, key, request, method, params: asObject(own(request, 'params')), value });
    }
  }
  return out ?? NONE;
}

/** One embedded `{method, params}` request of an input_required answer. */
export interface EmbeddedRequest { key: string; params: Record<string, unknown> | undefined; answer: RpcMessage }

/** Every embedded input request of `method` in the exchange's input_required answers. */
export function embeddedRequests(d: DecodedExchange, method: string): readonly EmbeddedRequest[] {
  if (embeddedOf !== d) {
    embeddedOf = d;
    embeddedMethods.length = 0;
    embeddedLists.length = 0;
  }
  const at = embeddedMethods.indexOf(method);
  if (at >= 0) return embeddedLists[at];
  const list = computeEmbeddedRequests(d, method);
  embeddedMethods.push(method);
  embeddedLists.push(list);
  return list;
}

// The last exchange's answers, by method (three methods at most: a Map would be overkill).
let embeddedOf: DecodedExchange | null = null;
const embeddedMethods: string[] = [];
const embeddedLists: (readonly EmbeddedRequest[])[] = [];

function computeEmbeddedRequests(d: DecodedExchange, method: string): readonly EmbeddedRequest[] {
  let out: EmbeddedRequest[] | undefined;
  for (const answer of inputRequiredResults(d)) {
    const requests = asObject(own(answer.result, 'inputRequests'));
    if (!requests) continue;
    for (const key of Object.keys(requests)) {
      const req = asObject(requests[key]);
      if (req && own(req, 'method') === method) (out ??= []).push({ key, params: asObject(own(req, 'params')), answer });
    }
  }
  return out ?? NONE;
}

/** Keys the previous round asked for that the retry gave no inputResponses for, in asking order. */
export function missingResponses(prev: Round, round: Round): readonly string[] {
  if (!prev.inputRequests) return NONE;
  let out: string[] | undefined;
  const sent: readonly string[] = round.inputResponses ?? NONE;
  for (const k of Object.keys(prev.inputRequests)) if (!sent.includes(k)) (out ??= []).push(k);
  return out ?? NONE;
}

