// The mock's book: every request a capture holds, with the answer it got, arranged by the
// threader's conversations (design.md, Check and mock). The threader already decides which
// retry continues which call; the mock follows those rounds and never matches a second way.
// Pure data and functions: runs in the CLI and could run in the page's worker.
import type { ExchangeRecord, HeaderPair, Round, TaskStep } from '../protocol.js';
import { decodeExchange, responseEvents } from '../decode/exchange.js';
import { header, mediaType } from '../decode/headers.js';
import { asObject, own } from '../decode/meta.js';
import { canonicalJson } from '../thread/round.js';
import { orderForThreading, Threader } from '../thread/threader.js';

/** One JSON-RPC message of a recorded answer, with where it sat in time. */
export interface RecordedMessage {
  /** ms after the request was sent that it arrived. */
  at: number;
  event?: string;
  eventId?: string;
  /** The parsed message (a batch stays an array). */
  value: unknown;
}

/** How a round's request carried the token the round before it issued. */
export type Echo = 'none' | 'issued' | 'foreign';

/** One recorded request of a call and the answer it got. */
export interface RecordedRound {
  /** Capture position of its exchange. */
  seq: number;
  /** Rounds from the call's first request along this round's branch (0 for the first). */
  depth: number;
  /** The round it continues (index in the call's rounds), or null for the first. */
  parent: number | null;
  /** The request's JSON-RPC id and progress token, to be swapped for the client's. */
  requestId: unknown;
  progressToken: unknown;
  params: Record<string, unknown> | undefined;
  echo: Echo;
  /** The request's inputResponses (null when none) and their canonical JSON. */
  responses: Record<string, unknown> | null;
  responsesText: string;
  /** What the answer asked for (key → method), when it was input_required. */
  asked: Record<string, string> | null;
  stateIssued: string | null;
  outcome: Round['outcome'];
  status: number;
  headers: HeaderPair[];
  stream: boolean;
  /** ms from the request to the response head. */
  headAt: number;
  messages: RecordedMessage[];
  /** Its step in a task's life (tasks extension) and, for a poll, what it asked for. */
  task?: { step: TaskStep; asked: Record<string, string> | null };
}

/** One recorded call: a conversation of the capture. */
export interface RecordedCall {
  /** The conversation's id, as lint and the page name it. */
  id: string;
  method: string;
  name: string | null;
  /** What its first request is matched on (see requestKey). */
  key: string;
  rounds: RecordedRound[];
  /** The task its first answer created (tasks extension); its polls, updates and cancels
   *  are its later rounds. */
  taskId?: string;
}

/** The capture as the mock serves it. */
export interface MockBook {
  calls: RecordedCall[];
  /** Calls by their first request's key, in capture order. */
  byKey: Map<string, RecordedCall[]>;
  /** Calls that created a task, by the recorded taskId. */
  byTask: Map<string, RecordedCall>;
}

/** params without what changes every time or each round: `_meta` (with the 2026 client's
 *  identity), the token, the answers; and a 2025 `initialize`'s clientInfo, the same
 *  identity in that era's place (another client, or another version of it, is served too). */
export function comparableParams(params: Record<string, unknown> | undefined, method?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (params) for (const k of Object.keys(params)) if (k !== '_meta' && k !== 'requestState' && k !== 'inputResponses' && !(method === 'initialize' && k === 'clientInfo')) out[k] = params[k];
  return out;
}

/** A first request's match key: its method, and its params as comparableParams leaves them
 *  (for tools/call that is the name and the arguments), in canonical JSON. */
export function requestKey(method: string, params: Record<string, unknown> | undefined): string {
  return `${method}\u0000${canonicalJson(comparableParams(params, method))}`;
}

/** The actions of a request's inputResponses (accept, decline, cancel; null for an answer
 *  without one, such as a sampling result), by key, in canonical JSON: what tells recorded
 *  variants of one round apart when the client's answers are not byte for byte recorded. */
export function answerActions(responses: Record<string, unknown> | null): string {
  const keys = responses ? Object.keys(responses).sort() : [];
  return canonicalJson(Object.fromEntries(keys.map((k) => [k, asObject(responses![k])?.action ?? null])));
}

/**
 * The recorded variant the client's answers pick, out of `pool`: the same answers (canonical
 * JSON) first, then the same actions, then one on `current` (the run the client is on); the
 * first of equals. `answers` null: the answers do not tell (a cancel), only the run does.
 * One rule for a multi-round call's variants (matcher.ts) and a task's runs (tasks.ts).
 */
export function pickVariant<T extends { call: RecordedCall; round: number }>(
  pool: readonly T[], current: RecordedCall, answers: { responses: Record<string, unknown> | null } | null,
  actionsOf: (r: RecordedRound) => string = (r) => answerActions(r.responses),
): T {
  const text = answers && canonicalJson(answers.responses);
  const acts = answers && answerActions(answers.responses);
  const score = (n: T) => {
    const r = n.call.rounds[n.round];
    return (answers && r.responsesText === text ? 4 : 0) + (answers && actionsOf(r) === acts ? 2 : 0) + (n.call === current ? 1 : 0);
  };
  let pick = pool[0];
  for (const n of pool) if (score(n) > score(pick)) pick = n;
  return pick;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The answer's messages, parsed again from the recorded text (the decoder's messages keep
 *  only the fields it knows, and the mock must send the server's words as they were). */
function messagesOf(record: AnswerPart): RecordedMessage[] {
  const res = record.response;
  if (!res) return [];
  const events = responseEvents(record);
  if (events) {
    const messages: RecordedMessage[] = [];
    for (const ev of events) {
      const value = ev.data.trim() === '' ? undefined : parse(ev.data);
      if (value === undefined && ev.data.trim() !== '') continue;
      const m: RecordedMessage = { at: Math.max(0, ev.t - record.startedAt), value: value ?? null };
      if (ev.event !== undefined) m.event = ev.event;
      if (ev.id !== undefined) m.eventId = ev.id;
      messages.push(m);
    }
    return messages;
  }
  const value = res.body !== undefined && res.body.trim() !== '' ? parse(res.body) : undefined;
  const at = Math.max(0, (record.endedAt ?? res.receivedAt) - record.startedAt);
  return value === undefined ? [] : [{ at, value }];
}

/** Whether the answer is served as an event stream: recorded as one over HTTP (stdio's
 *  lines are not), with its events or a body to read them from. Decided without parsing. */
function isStream(record: ExchangeRecord): boolean {
  const res = record.response;
  if (!res || record.stdio || mediaType(header(res.headers, 'content-type')) !== 'text/event-stream') return false;
  return res.events !== undefined || !!res.body;
}

/** What of an exchange its answer's messages are read from. */
type AnswerPart = Pick<ExchangeRecord, 'response' | 'startedAt' | 'endedAt' | 'stdio'>;

/** The round's answer is parsed each time it is served, not at start: a 10k-exchange
 *  capture starts without parsing every answer twice (the decoder parsed it once), most
 *  recorded answers of a big capture are never asked for, and a parsed answer is not kept
 *  (it would grow the old heap, which every collection while serving marks). Only the
 *  answer's part of the record is kept for it (the request's text is not). */
function lazyMessages<T extends object>(round: T, record: ExchangeRecord): T & { messages: RecordedMessage[] } {
  const part: AnswerPart = { response: record.response, startedAt: record.startedAt, endedAt: record.endedAt, stdio: record.stdio };
  return Object.defineProperty(round, 'messages', { enumerable: true, get: () => messagesOf(part) }) as T & { messages: RecordedMessage[] };
}

/** Builds the book from a capture's exchanges (any order; threaded in send order). */
export function buildMockBook(records: readonly ExchangeRecord[]): MockBook {
  const threader = new Threader();
  const bySeq = new Map<number, { record: ExchangeRecord; sent: ReturnType<typeof decodeExchange>['sent'] }>();
  for (const record of orderForThreading(records)) {
    const decoded = decodeExchange(record);
    bySeq.set(record.seq, { record, sent: decoded.sent });
    threader.add(record, decoded);
  }
  const calls: RecordedCall[] = [];
  const byKey = new Map<string, RecordedCall[]>();
  const byTask = new Map<string, RecordedCall>();
  for (const c of threader.conversations(true)) {
    const rounds: RecordedRound[] = [];
    for (const [i, r] of c.rounds.entries()) {
      const ex = bySeq.get(r.exchange);
      const msg = ex?.sent[r.message];
      if (!ex || !msg || msg.kind !== 'request') break;
      const record = ex.record;
      const parent = i === 0 ? null : (r.parent ?? i - 1);
      const before = parent === null ? null : c.rounds[parent].stateIssued;
      const echo: Echo = r.stateSent === null ? 'none' : r.stateSent === before ? 'issued' : 'foreign';
      const responses = asObject(own(msg.params, 'inputResponses')) ?? null;
      rounds.push(lazyMessages({
        seq: record.seq, depth: parent === null ? 0 : rounds[parent].depth + 1, parent,
        requestId: msg.id, progressToken: own(asObject(own(msg.params, '_meta')), 'progressToken'),
        params: msg.params, echo, responses, responsesText: canonicalJson(responses),
        asked: r.inputRequests, stateIssued: r.stateIssued, outcome: r.outcome,
        status: record.response?.status ?? 0, headers: record.response?.headers ?? [],
        stream: isStream(record),
        headAt: Math.max(0, (record.response?.receivedAt ?? record.startedAt) - record.startedAt),
        ...(r.task ? { task: { step: r.task.step, asked: r.task.requests ?? null } } : {}),
      }, record));
    }
    if (rounds.length === 0) continue;
    const call: RecordedCall = { id: c.id, method: c.method, name: c.name, key: requestKey(c.method, rounds[0].params), rounds };
    if (c.task && c.task.created === 0) {
      call.taskId = c.task.taskId;
      byTask.set(c.task.taskId, call);
    }
    calls.push(call);
    const list = byKey.get(call.key);
    if (list) list.push(call);
    else byKey.set(call.key, [call]);
  }
  return { calls, byKey, byTask };
}
