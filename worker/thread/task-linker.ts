// Threading the tasks extension: a `tools/call` answered with `resultType: "task"` opens a
// task, and every later `tasks/get`, `tasks/update` and `tasks/cancel` naming its taskId on
// the same server joins that call's conversation (design.md, Tasks extension). Polls that
// show the same status and the same outstanding requests as the round before fold into
// it (`RoundTask.polls`), so a task polled a thousand times reads as a handful of rounds.
//
// Hazard: folding reads a poll's answer. A poll threaded before its answer arrived is a
// round of its own, so a live host must re-thread when a task round's answer comes in
// (engine/thread-state.ts refuses to file such answers in place).
import type { Conversation, DecodedExchange, ExchangeRecord, Round, RoundTask, TaskStep } from '../protocol.js';
import { resultType } from '../decode/jsonrpc.js';
import { taskFields, taskIdOf } from '../decode/task.js';
import { canonicalJson, inputRequestKinds } from './round.js';

/** Tasks are per server: the URL, and for stdio the one client's process. */
function serverOf(record: ExchangeRecord): string {
  return record.stdio ? `${record.request.url}\u0000${record.client ?? ''}` : record.request.url;
}

const STEPS: Readonly<Record<string, TaskStep>> = { 'tasks/get': 'get', 'tasks/update': 'update', 'tasks/cancel': 'cancel' };

/** The JSON-RPC answer of a round, when it has one. */
function answerOf(decoded: DecodedExchange, round: Round) {
  return round.answer >= 0 ? decoded.received[round.answer] : undefined;
}

/** The answer creates a task (`resultType: "task"`). */
export function createsTask(decoded: DecodedExchange, round: Round): boolean {
  const a = answerOf(decoded, round);
  return a !== undefined && a.kind === 'result' && resultType(a) === 'task';
}

export class TaskLinker {
  /** server + taskId → the conversation holding the task. */
  private readonly byId = new Map<string, Conversation>();
  /** What a foldable poll showed (status and requests, canonical), by round. */
  private readonly shown = new WeakMap<Round, string>();
  /** Chain key (method + name) → task conversations waiting for input, for spotting a
   *  client that answers by retrying the original call instead of tasks/update. */
  private readonly waiting = new Map<string, Set<Conversation>>();
  private readonly keyOf = new WeakMap<Conversation, string>();

  /**
   * A tasks/* request: marks the round with its task step and joins (or folds into) the
   * task's conversation, which it returns. Null when the capture shows no such task on that
   * server (or the request names none): the caller gives it a conversation of its own, then
   * `adopt`s it.
   */
  join(record: ExchangeRecord, decoded: DecodedExchange, round: Round, method: string): Conversation | null {
    const step = STEPS[method];
    const taskId = step === undefined ? null : taskIdOf(decoded.sent[round.message].params);
    if (taskId === null) return null;
    const answer = answerOf(decoded, round);
    const fields = step === 'get' && answer?.kind === 'result' ? taskFields(answer.result) : null;
    const task: RoundTask = { step, taskId, status: fields?.status ?? null };
    const requests = fields?.inputRequests ? inputRequestKinds(fields.inputRequests) : null;
    if (requests) task.requests = requests;
    round.task = task;
    if (fields && round.outcome === 'complete') this.shown.set(round, `${fields.status}\u0000${canonicalJson(fields.inputRequests ?? null)}`);
    const conv = this.byId.get(`${serverOf(record)}\u0000${taskId}`);
    if (conv === undefined) return null;
    const last = conv.rounds[conv.rounds.length - 1];
    const shown = this.shown.get(round);
    if (shown !== undefined && last.task?.step === 'get' && this.shown.get(last) === shown) {
      (last.task.polls ??= []).push({
        exchange: round.exchange, message: round.message, answer: round.answer, requestId: round.requestId,
        sentAt: round.sentAt, answeredAt: round.answeredAt,
      });
      conv.exchanges.push(record.seq);
      return conv;
    }
    round.link = 'match';
    round.parent = conv.rounds.length - 1;
    round.linkReason = `${method} for task ${JSON.stringify(taskId)}, joined by its taskId`;
    conv.rounds.push(round);
    conv.exchanges.push(record.seq);
    this.note(conv, task);
    return conv;
  }

  /** A round just placed in `conv` (round index `ri`, chain key `key`): files a task it
   *  creates, or a tasks/* request that named a task the capture had not shown. */
  adopt(conv: Conversation, ri: number, key: string, record: ExchangeRecord, decoded: DecodedExchange): void {
    const round = conv.rounds[ri];
    if (round.task !== undefined && conv.task === undefined && ri === 0) {
      conv.task = { taskId: round.task.taskId, created: null, status: null };
      this.byId.set(`${serverOf(record)}\u0000${round.task.taskId}`, conv);
      this.note(conv, round.task);
      return;
    }
    if (round.task !== undefined || !createsTask(decoded, round)) return;
    const fields = taskFields(answerOf(decoded, round)?.result);
    if (fields.taskId === null) return;
    round.task = { step: 'create', taskId: fields.taskId, status: fields.status };
    conv.task = { taskId: fields.taskId, created: ri, status: null };
    this.byId.set(`${serverOf(record)}\u0000${fields.taskId}`, conv);
    this.keyOf.set(conv, key);
    this.note(conv, round.task);
  }

  /**
   * The task conversation a retry of the original call belongs to: one waiting for input
   * (its latest poll, answered before the retry was sent, asked for every key the retry
   * answers) of the same call (`sameCall`). Null when none or several fit.
   */
  retryTarget(key: string, round: Round, sameCall: (c: Conversation) => boolean): Conversation | null {
    const keys = round.inputResponses ?? [];
    if (keys.length === 0) return null;
    const fits: Conversation[] = [];
    for (const c of this.waiting.get(key) ?? []) {
      const asked = lastAsking(c);
      if (asked === null || asked.answeredAt === null || asked.answeredAt > round.sentAt) continue;
      if (!keys.every((k) => Object.prototype.hasOwnProperty.call(asked.task!.requests, k))) continue;
      if (sameCall(c)) fits.push(c);
    }
    return fits.length === 1 ? fits[0] : null;
  }

  /** Keeps the conversation's latest status and whether it waits for input. */
  private note(conv: Conversation, task: RoundTask): void {
    if (task.status !== null && conv.task) conv.task.status = task.status;
    const key = this.keyOf.get(conv);
    if (key === undefined || task.status === null) return;
    let set = this.waiting.get(key);
    if (task.status === 'input_required' && task.requests) {
      if (!set) this.waiting.set(key, (set = new Set()));
      set.add(conv);
    } else set?.delete(conv);
  }
}

/** The latest round of a task conversation that reported input requests. */
function lastAsking(c: Conversation): Round | null {
  for (let i = c.rounds.length - 1; i >= 0; i--) if (c.rounds[i].task?.requests) return c.rounds[i];
  return null;
}
