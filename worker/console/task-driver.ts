// Driving one task of the tasks extension from the Console: call a tool as a task, poll
// tasks/get no faster than the task's pollIntervalMs, answer outstanding input requests
// through tasks/update, cancel, and the key tests. A pure state machine over an injected
// transport, clock and sleep, so the page, the CLI and the tests drive it the same way.
//
// Keys are tracked over the task's lifetime (tasks:348-350): a key whose answer was
// delivered and that a later poll shows with the same request is the server not having
// caught up (eventually consistent), so it is not asked again; shown with a different
// request, it is a re-used key, flagged and asked again so the task can still be driven.
import type { ConsoleOrigin, ExchangeRecord, JsonRpcId, OriginKind } from '../protocol.js';
import { consoleRecord, newRecordId, readRound, sendSafely } from './exchange.js';
import { buildRetry, toHttp } from './request.js';
import { buildTaskRequest, isTerminalStatus, readTask, type TaskClient, type TaskReading, type TaskStatus } from './task-request.js';
import type { BuiltRequest, ConsoleRequest, InputRequest, RoundReading, Transport } from './types.js';
import { runKeyTest } from './task-key-tests.js';
import type { KeyTestKind, KeyTestOutcome, TaskDriverState, TaskSend } from './task-state.js';

/** Polling interval when the task names none. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;

export type { TaskDriverState, TaskSend } from './task-state.js';

/** How a driver is set up. */
export interface TaskDriverOptions {
  send: Transport;
  url: string;
  client: TaskClient;
  /** JSON-RPC ids (default: a counter from 1). */
  ids?: () => JsonRpcId;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  seqStart?: number;
  /** The origin of every send but a key test (the check's drives carry `check` and its run). */
  origin?: ConsoleOrigin;
}

export interface TaskDriver {
  readonly state: TaskDriverState;
  /** Sends the tools/call (built with the extension declared, see withTasksExtension). */
  start(call: BuiltRequest): Promise<TaskDriverState>;
  /** One tasks/get, sent no sooner than pollIntervalMs after the last poll. */
  poll(): Promise<TaskDriverState>;
  /** Polls until the task needs an answer or ends (at most `limit` polls). */
  pollUntilSettled(limit?: number): Promise<TaskDriverState>;
  answer(key: string, response: Record<string, unknown>): TaskDriverState;
  /** Sends the staged answers: in one tasks/update, or (MRTR rounds before the task) in the call's retry. */
  submit(): Promise<TaskDriverState>;
  cancel(): Promise<TaskDriverState>;
  keyTest(kind: KeyTestKind): Promise<TaskDriverState>;
}

const sameRequest = (a: InputRequest | undefined, b: InputRequest) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** A driver for one task. */
export function createTaskDriver(opts: TaskDriverOptions): TaskDriver {
  let counter = 0;
  const ids = opts.ids ?? (() => ++counter);
  const now = opts.now ?? (() => Date.now());
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let seq = opts.seqStart ?? 0;
  let lastPollAt = 0;
  // The call and the input_required answer its next retry continues (MRTR before the task).
  let call: BuiltRequest | null = null;
  let lastRound: Record<string, unknown> | null = null;
  // The request first shown under each key, to tell a re-show from a re-used key.
  const asked: Record<string, InputRequest> = {};
  let s: TaskDriverState = { phase: 'idle', rounds: 0, taskId: null, status: null, pollIntervalMs: null, timeline: [], polls: 0, outstanding: {}, answered: {}, staged: {}, reusedKeys: [], sends: [], keyTests: [] };
  const set = (patch: Partial<TaskDriverState>): TaskDriverState => (s = { ...s, ...patch });

  async function exchange(kind: TaskSend['kind'], built: BuiltRequest): Promise<TaskSend> {
    // A task's first call is the Console's `call`; its polls, updates and cancels are steps;
    // a key test misuses a key on purpose, as a tamper test does.
    const origin: OriginKind = kind === 'key-test' ? 'tamper' : opts.origin?.kind ?? (kind === 'call' ? 'call' : 'step');
    const run = kind !== 'key-test' ? opts.origin?.run : undefined;
    const req = { ...toHttp(opts.url, built), link: { id: newRecordId(), origin, ...(run !== undefined ? { run } : {}) } };
    const res = await sendSafely(opts.send, req);
    const record = consoleRecord(req, res, { id: req.link.id, seq: seq++ });
    const sent: TaskSend = { kind, id: built.body.id, request: req, reading: readRound(record, built.body.id), record };
    set({ sends: [...s.sends, sent] });
    return sent;
  }

  // Folds a Task into the state: status timeline, outstanding keys, result or error.
  function take(task: TaskReading, polled: boolean): void {
    const timeline = [...s.timeline];
    const last = timeline[timeline.length - 1];
    if (!last || last.status !== task.status) timeline.push({ status: task.status, polls: polled ? 1 : 0 });
    else if (polled) timeline[timeline.length - 1] = { ...last, polls: last.polls + 1 };
    const outstanding: Record<string, InputRequest> = {};
    const reused = [...s.reusedKeys];
    for (const [key, req] of Object.entries(task.inputRequests ?? {})) {
      if (key in s.answered && sameRequest(asked[key], req)) continue;
      if (key in s.answered && !reused.includes(key)) reused.push(key);
      asked[key] = req;
      outstanding[key] = req;
    }
    const staged = Object.fromEntries(Object.entries(s.staged).filter(([k]) => k in outstanding));
    set({
      taskId: task.taskId, status: task.status, timeline, outstanding, staged, reusedKeys: reused,
      pollIntervalMs: task.pollIntervalMs ?? s.pollIntervalMs,
      phase: isTerminalStatus(task.status) ? 'done' : 'running',
      ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
      ...(task.result ? { result: task.result } : {}),
      ...(task.error ? { error: task.error } : {}),
    });
  }

  // The answer to the call or one of its retries: another MRTR round (its questions become
  // the outstanding ones, answered with Submit as a retry of the call), the task, or a
  // call that created none. MRTR keys are a namespace apart from the task's (sep2663:940).
  function settle(sent: TaskSend): TaskDriverState {
    lastPollAt = now();
    if (sent.reading.kind === 'input_required') {
      lastRound = sent.reading.result;
      return set({ phase: 'rounds', rounds: s.rounds + 1, outstanding: sent.reading.inputRequests, staged: {}, message: undefined });
    }
    lastRound = null;
    set({ outstanding: {}, staged: {} });
    const read = readTask(sent.reading);
    if ('problem' in read) {
      const plain = sent.reading.kind === 'complete' ? 'The server answered without creating a task' : 'The call failed';
      return set({ phase: 'not-task', message: `${plain}: ${read.problem}.`, ...(sent.reading.kind === 'complete' ? { result: sent.reading.result } : {}) });
    }
    take(read.task, false);
    return set({ message: undefined });
  }

  // Sends the staged answers to an MRTR round as the call's retry: every question answered,
  // the round's requestState echoed, a new id, the extension still declared.
  async function retry(): Promise<TaskDriverState> {
    const missing = Object.keys(s.outstanding).filter((k) => !(k in s.staged));
    if (call === null || lastRound === null || missing.length > 0) return set({ message: `Answer every request of this round first (${missing.join(', ')}).` });
    set({ phase: 'sending' });
    return settle(await exchange('retry', buildRetry(call, lastRound, s.staged, ids())));
  }

  async function poll(): Promise<TaskDriverState> {
    if (!s.taskId) return set({ message: 'No task yet: call a tool as a task first.' });
    const wait = lastPollAt + (s.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS) - now();
    if (wait > 0) await sleep(wait);
    const asked = now();
    const sent = await exchange('get', buildTaskRequest('tasks/get', s.taskId, opts.client, ids()));
    // The interval runs from when this poll really left (the transport's wall-clock stamp,
    // taken into this driver's clock), not from when it was asked for: filing the send
    // first takes a varying while, and measuring from before it let a slow send followed
    // by a quick one reach the server too soon.
    lastPollAt = Math.max(asked, now() - Math.max(0, Date.now() - sent.record.startedAt));
    const read = readTask(sent.reading);
    set({ polls: s.polls + 1 });
    if ('problem' in read) return set({ message: `tasks/get: ${read.problem}` });
    take(read.task, true);
    return set({ message: undefined });
  }

  async function update(kind: 'update' | 'key-test', responses: Record<string, unknown>): Promise<TaskSend> {
    return exchange(kind, buildTaskRequest('tasks/update', s.taskId!, opts.client, ids(), { inputResponses: responses }));
  }

  return {
    get state() { return s; },

    async start(first) {
      set({ phase: 'sending' });
      call = first;
      return settle(await exchange('call', first));
    },

    poll,

    async pollUntilSettled(limit = 50) {
      for (let i = 0; i < limit && s.phase === 'running'; i++) {
        await poll();
        if (s.message !== undefined || Object.keys(s.outstanding).length > 0) break;
      }
      return s;
    },

    answer(key, response) {
      if (!(key in s.outstanding)) return set({ message: `"${key}" is not an outstanding request of this task.` });
      return set({ staged: { ...s.staged, [key]: response }, message: undefined });
    },

    async submit() {
      if (s.phase === 'rounds') return retry();
      const staged = s.staged;
      if (!s.taskId || Object.keys(staged).length === 0) return set({ message: 'Answer at least one outstanding request first.' });
      const sent = await update('update', staged);
      if (sent.reading.kind !== 'complete') return set({ message: `tasks/update was not acknowledged: ${describe(sent.reading)}` });
      const outstanding = Object.fromEntries(Object.entries(s.outstanding).filter(([k]) => !(k in staged)));
      return set({ answered: { ...s.answered, ...staged }, staged: {}, outstanding, message: undefined });
    },

    async cancel() {
      if (!s.taskId) return set({ message: 'No task to cancel.' });
      const sent = await exchange('cancel', buildTaskRequest('tasks/cancel', s.taskId, opts.client, ids()));
      if (sent.reading.kind !== 'complete') return set({ message: `tasks/cancel was refused: ${describe(sent.reading)}` });
      // Cancellation is cooperative: the task's status says when it took effect. That poll
      // keeps to the interval too (a cancel is no licence to poll faster).
      return poll();
    },

    async keyTest(kind) {
      const outcome = await runKeyTest(kind, {
        state: s,
        update: (responses) => update('key-test', responses),
        poll,
      });
      return set({ keyTests: [...s.keyTests, outcome] });
    },
  };
}

/** One line about a reading that is not an acknowledgement. */
export function describe(r: RoundReading): string {
  if (r.kind === 'failed') return r.message;
  if (r.kind === 'error') return `error ${r.error.code}: ${r.error.message}`;
  return r.kind;
}

export type { KeyTestKind, KeyTestOutcome };
