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

// Hot paths: each helper below runs for several rules on every exchange of a capture, and
// what rules allocate there is most of a big lint's garbage. So a filter that keeps every
// message returns the list itself, one that keeps none a shared empty list. Hazard: the
// results are read-only views; never mutate them.
export const NONE: readonly never[] = Object.freeze([]);

function subset(list: readonly RpcMessage[], keep: (m: RpcMessage) => boolean): readonly RpcMessage[] {
  let n = 0;
  for (const m of list) if (keep(m)) n++;
  return n === list.length ? list : n === 0 ? NONE : list.filter(keep);
}

const isRequest = (m: RpcMessage) => m.kind === 'request';
const isInputRequired = (m: RpcMessage) => m.kind === 'result' && own(m.result, 'resultType') === 'input_required';

/** The JSON-RPC requests (not notifications, not responses) a POST body carried. */
export function requestsOf(d: DecodedExchange): readonly RpcMessage[] {
  return subset(d.sent, isRequest);
}

/** JSON-RPC ids are equal only with the same type and value ("1" is not 1). */
export function sameRpcId(a: JsonRpcId | undefined, b: JsonRpcId | undefined): boolean {
  return a !== undefined && b !== undefined && a === b;
}

/** The request a received result/error answers: same id, else the only request sent. */
export function requestFor(d: DecodedExchange, answer: RpcMessage): RpcMessage | undefined {
  let only: RpcMessage | undefined;
  let count = 0;
  for (const m of d.sent) {
    if (m.kind !== 'request') continue;
    if (sameRpcId(m.id, answer.id)) return m;
    only = m;
    count++;
  }
  return count === 1 ? only : undefined;
}

/** Received results whose `resultType` is `input_required`. Seven rules ask in turn about
 *  the same exchange: the last answer is remembered. */
export function inputRequiredResults(d: DecodedExchange): readonly RpcMessage[] {
  if (inputRequiredOf !== d) {
    inputRequired = subset(d.received, isInputRequired);
    inputRequiredOf = d;
  }
  return inputRequired;
}

let inputRequiredOf: DecodedExchange | null = null;
let inputRequired: readonly RpcMessage[] = NONE;

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

/** Where a token was presented, as the page names it, seen from conversation `from`: a
 *  round by its number in its call ("round 2 of this call"), and the call by its method and
 *  tool when it is another one (the one `from` replays, or another). Never the capture's
 *  exchange number, which no view shows. */
export function presentationPlace(p: { round: Round; conversation: Conversation }, from: Conversation): string {
  const n = roundLabel(p.conversation.rounds.indexOf(p.round));
  const o = p.conversation;
  if (o.id === from.id) return `${n} of this call`;
  const call = o.name !== null ? `${o.method} ${show(o.name)}` : o.method;
  return from.replayOf === o.id ? `${n} of the ${call} call this one replays` : `${n} of another ${call} call`;
}

/** How many of a conversation's rounds are its MRTR chain: all of them, or for a task
 *  up to the round that created it (none when the capture shows only the task's polls).
 *  MRTR rules compare rounds of one request; a task's polls and updates are not retries. */
export function mrtrRoundCount(c: Conversation): number {
  if (c.task === undefined) return c.rounds.length;
  return c.task.created === null ? 0 : c.task.created + 1;
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
  // Most conversation rules walk the same pairs: compute them once per conversation. The
  // engine checks one conversation with every rule before the next (engine.ts), so the
  // last one is all there is to remember; a memo per conversation would keep every pair
  // of a 100k-exchange capture alive for as long as its conversations.
  // Keyed by the rounds list, not the conversation: a live conversation object gains
  // rounds, and each threading pass hands out a new list (thread/threader.ts).
  if (pairsOf !== c.rounds) {
    pairs = computeRetryPairs(c);
    pairsOf = c.rounds;
  }
  return pairs;
}

let pairsOf: readonly Round[] | null = null;
let pairs: RetryPair[] = [];

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
export function issuedTokens(c: Conversation, ctx: LintContext): IssuedToken[] {
  // Six state/* rules ask in turn about the same conversation: remember the last answer,
  // kept by the context.
  const last = ctx.memo(ISSUED, (): { of: Conversation | null; list: IssuedToken[] } => ({ of: null, list: [] }));
  if (last.of !== c) {
    last.list = computeIssuedTokens(c, ctx);
    last.of = c;
  }
  return last.list;
}

interface IssuedToken { round: Round; index: number; reading: TokenReading }
const ISSUED = {};

function computeIssuedTokens(c: Conversation, ctx: LintContext): IssuedToken[] {
  const out: IssuedToken[] = [];
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

/**
 * `canonical(a) === canonical(b)`, without building either string: the same depth cap
 * (past it all values are equal), the same key sets in any order, primitives equal as
 * JSON text. Hot path: rules compare every retry's arguments, and nearly all are equal.
 */
export function sameCanonical(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b || depth > 64) return true;
  const x = typeof a === 'object' && a !== null;
  const y = typeof b === 'object' && b !== null;
  // A container's canonical form starts with [ or {, a primitive's never does.
  if (!x || !y) return !x && !y && (JSON.stringify(a) ?? 'null') === (JSON.stringify(b) ?? 'null');
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameCanonical(a[i], b[i], depth + 1)) return false;
    return true;
  }
  const p = a as Record<string, unknown>;
  const q = b as Record<string, unknown>;
  const keys = Object.keys(p);
  if (keys.length !== Object.keys(q).length) return false;
  for (const k of keys) if (!isEnumerable.call(q, k) || !sameCanonical(p[k], q[k], depth + 1)) return false;
  return true;
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

/** Byte offset (UTF-8) of the first difference between two strings. */
export function firstDiffByte(a: string, b: string): number {
  let i = 0;
  const n = Math.min(a.length, b.length);
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return new TextEncoder().encode(a.slice(0, i)).length;
}
