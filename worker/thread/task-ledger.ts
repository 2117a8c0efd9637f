// A task's life read from its conversation: each step in order (folded polls expanded),
// with what each answer said, and every input key tracked over the task's lifetime.
// Shared by the tasks/* lint rules and the task card, so both agree on "outstanding".
import type { Conversation, RpcMessage } from '../protocol.js';
import { taskFields, TERMINAL_STATUSES } from '../decode/task.js';
import { asObject, own } from '../decode/meta.js';
import { canonicalJson } from './round.js';

/** One step of a task's life as it went over the wire. */
export interface TaskEvent {
  kind: 'create' | 'poll' | 'update' | 'cancel' | 'retry';
  /** Index of the round (a folded poll: the round it was folded into). */
  round: number;
  exchange: number;
  /** Index of the answer among the exchange's received messages, or -1. */
  answer: number;
  sentAt: number;
  answeredAt: number | null;
  /** The status the answer reported (create, poll). */
  status: string | null;
  /** A poll's inputRequests: key → method, and key → canonical JSON of the request. */
  requests: Record<string, string> | null;
  requestText: Record<string, string> | null;
  pollIntervalMs: number | null;
  /** Keys an update (or a retry of the creating call) answered. */
  keys: string[] | null;
  /** The JSON-RPC error that answered the step, when one did. */
  error: { code: number; message: string } | null;
  /** The answer's `resultType`, when it has one. */
  resultType: string | null;
}

/** One input key over the task's life. */
export interface TaskKey {
  key: string;
  method: string;
  /** Exchange of the poll that first asked for it. */
  askedIn: number;
  /** Exchange of the first update that answered it, or null. */
  answeredIn: number | null;
}

export interface TaskLedger {
  events: TaskEvent[];
  /** Every key asked for, in the order first asked. */
  keys: TaskKey[];
  /** Keys the latest input_required poll asks for that no update has answered. */
  outstanding: string[];
}

/** The message at `index` of an exchange's sent or received list. */
export type MessageAt = (exchange: number, side: 'sent' | 'received', index: number) => RpcMessage | undefined;

/** The ledger of a task conversation (an empty one for a conversation without a task). */
export function taskLedger(c: Conversation, at: MessageAt): TaskLedger {
  const events: TaskEvent[] = [];
  if (c.task === undefined) return { events, keys: [], outstanding: [] };
  const from = c.task.created ?? 0;
  for (let i = from; i < c.rounds.length; i++) {
    const r = c.rounds[i];
    const kind = r.task?.step === 'get' ? 'poll' : r.task?.step ?? (r.inputResponses !== null && i > from ? 'retry' : null);
    if (kind === null) continue;
    events.push(eventOf(kind, i, r.exchange, r.answer, r.sentAt, r.answeredAt, r.inputResponses, at));
    for (const p of r.task?.polls ?? []) events.push(eventOf('poll', i, p.exchange, p.answer, p.sentAt, p.answeredAt, null, at));
  }
  const keys = new Map<string, TaskKey>();
  let latest: string[] = [];
  for (const e of events) {
    if (e.kind === 'poll' && e.status !== null) latest = e.status === 'input_required' ? Object.keys(e.requests ?? {}) : [];
    for (const [k, method] of Object.entries(e.requests ?? {})) if (!keys.has(k)) keys.set(k, { key: k, method, askedIn: e.exchange, answeredIn: null });
    if (e.kind === 'update' && e.error === null) for (const k of e.keys ?? []) {
      const known = keys.get(k);
      if (known && known.answeredIn === null) known.answeredIn = e.exchange;
    }
  }
  const outstanding = latest.filter((k) => keys.get(k)?.answeredIn === null);
  return { events, keys: [...keys.values()], outstanding };
}

function eventOf(kind: TaskEvent['kind'], round: number, exchange: number, answer: number, sentAt: number, answeredAt: number | null, keys: string[] | null, at: MessageAt): TaskEvent {
  const a = answer >= 0 ? at(exchange, 'received', answer) : undefined;
  const result = a?.kind === 'result' ? a.result : undefined;
  const f = kind === 'create' || kind === 'poll' ? taskFields(result) : null;
  let requests: Record<string, string> | null = null;
  let requestText: Record<string, string> | null = null;
  if (f?.inputRequests) {
    requests = {};
    requestText = {};
    for (const [k, v] of Object.entries(f.inputRequests)) {
      const m = own(asObject(v), 'method');
      requests[k] = typeof m === 'string' ? m : '?';
      requestText[k] = canonicalJson(v);
    }
  }
  const rt = own(result, 'resultType');
  return {
    kind, round, exchange, answer, sentAt, answeredAt,
    status: f?.status ?? null,
    requests, requestText,
    pollIntervalMs: f?.pollIntervalMs ?? null,
    keys,
    error: a?.kind === 'error' && a.error ? { code: a.error.code, message: a.error.message } : null,
    resultType: typeof rt === 'string' ? rt : null,
  };
}

/** The status is one a task never leaves. */
export function isTerminal(status: string | null): boolean {
  return status !== null && TERMINAL_STATUSES.has(status);
}
