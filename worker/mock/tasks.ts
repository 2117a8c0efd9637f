// The mock's side of the tasks extension: after it served a call whose recorded answer
// created a task, the client's tasks/get, tasks/update and tasks/cancel for that taskId
// follow the recorded task round by round. A poll gets the next recorded poll, or the last
// one again while the recording's client was answering (the task waits for it, as a real
// server's would); an update or a cancel takes the next recorded step of its kind, checked
// against the keys the last poll asked for. Pure decisions: the matcher serves them.
//
// Several recorded runs of one task (the same create, answered accept in one and decline or
// with an error in another) are variants, as a multi-round call's are: the create is served
// from one of them in turn, and at each update or cancel the task moves to the run whose
// step there the client's answers match best (same answers, then same actions, then the run
// it is on). The client keeps the taskId it was given: answers from another run carry the
// recorded taskId of that run, which the matcher swaps for the client's.
import { pickVariant, type MockBook, type RecordedCall } from './book.js';
import { nameOf } from './closest.js';
import { canonicalJson } from '../thread/round.js';

export const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Which recorded round answers a task request, or why none does. `taskId`: the client's,
 *  which the answer must carry whichever recorded run it comes from. */
export type TaskDecision =
  | { kind: 'serve'; taskId: string; call: RecordedCall; round: number; warning?: string }
  | { kind: 'fail'; reason: string; message: string };

/** Where one task the mock created stands: the run it follows, the last round served in it,
 *  how many updates and cancels it has taken, and the runs it may move to. */
interface TaskState {
  call: RecordedCall;
  pos: number;
  steps: number;
  variants: readonly RecordedCall[];
}

const stepOf = (call: RecordedCall, i: number) => call.rounds[i]?.task?.step;

/** The round of the `n`th update or cancel of a recorded task (0-based), or -1. */
function nthStep(call: RecordedCall, n: number): number {
  for (let i = 1, seen = 0; i < call.rounds.length; i++) {
    const step = stepOf(call, i);
    if (step === 'get' || step === undefined) continue;
    if (seen++ === n) return i;
  }
  return -1;
}

/** The last poll before round `before` that asked for input, or -1. */
function askingPoll(call: RecordedCall, before: number): number {
  for (let i = Math.min(before, call.rounds.length) - 1; i > 0; i--) if (stepOf(call, i) === 'get' && call.rounds[i].task?.asked) return i;
  return -1;
}

const keyList = (keys: readonly string[]) => keys.map((k) => JSON.stringify(k)).join(', ');

export class TaskFollower {
  /** Each task served so far, by the taskId the client was given. */
  private readonly at = new Map<string, TaskState>();

  constructor(private readonly book: MockBook) {}

  /** The mock served round 0 of `call`: when it created a task, the task starts there, with
   *  every recorded run of the same create as a variant. */
  started(call: RecordedCall): void {
    if (call.taskId === undefined) return;
    const variants = (this.book.byKey.get(call.key) ?? [call]).filter((c) => c.taskId !== undefined);
    this.at.set(call.taskId, { call, pos: 0, steps: 0, variants });
  }

  /** Moves the task to the answer chosen (call after serving a 'serve' decision). */
  moved(d: Extract<TaskDecision, { kind: 'serve' }>): void {
    const state = this.at.get(d.taskId);
    if (!state) return;
    const step = stepOf(d.call, d.round);
    if (step === 'update' || step === 'cancel') state.steps++;
    state.pos = d.call === state.call ? Math.max(d.round, state.pos) : d.round;
    state.call = d.call;
  }

  decide(method: string, taskId: unknown, responses: Record<string, unknown> | null, strict: boolean): TaskDecision {
    if (typeof taskId !== 'string') return { kind: 'fail', reason: 'no-task-id', message: `${method} without a string params.taskId` };
    const state = this.at.get(taskId);
    if (!state) {
      const call = this.book.byTask.get(taskId);
      return call
        ? { kind: 'fail', reason: 'task-not-created', message: `${method}: task ${JSON.stringify(taskId)} is created by ${nameOf(call, 0)}, which this mock has not served yet; send that request first` }
        : { kind: 'fail', reason: 'unknown-task', message: `${method}: task ${JSON.stringify(taskId)} is not in the recording${this.book.byTask.size ? ` (it holds ${[...this.book.byTask.keys()].slice(0, 3).map((k) => JSON.stringify(k)).join(', ')}${this.book.byTask.size > 3 ? ', …' : ''})` : ' (it holds no task)'}` };
    }
    const { call, pos } = state;
    if (method === 'tasks/get') {
      if (stepOf(call, pos + 1) === 'get') return { kind: 'serve', taskId, call, round: pos + 1 };
      for (let i = pos; i > 0; i--) if (stepOf(call, i) === 'get') return { kind: 'serve', taskId, call, round: i };
      return { kind: 'fail', reason: 'no-recorded-round', message: `tasks/get: the recording has no poll of task ${JSON.stringify(taskId)} after ${nameOf(call, pos)}` };
    }
    const want = method === 'tasks/update' ? 'update' : 'cancel';
    // The step the client takes, in the run the task is on (a client may skip polls the
    // recording's client made), and what the poll before it asked.
    const mine = nthStep(call, state.steps);
    const poll = askingPoll(call, mine >= 0 ? mine : pos + 1);
    const where = nameOf(call, poll >= 0 ? poll : pos);
    const askedText = canonicalJson(poll >= 0 ? call.rounds[poll].task!.asked : null);
    // That step in every run of the task that had been asked the same there.
    const pool: { call: RecordedCall; round: number }[] = [];
    for (const v of state.variants) {
      const i = nthStep(v, state.steps);
      if (i < 0 || stepOf(v, i) !== want) continue;
      if (want === 'update') {
        const p = askingPoll(v, i);
        if (canonicalJson(p >= 0 ? v.rounds[p].task!.asked : null) !== askedText) continue;
      }
      pool.push({ call: v, round: i });
    }
    if (pool.length === 0) {
      const next = stepOf(call, mine);
      const what = next === undefined ? 'the recorded task ends there' : `its next step is a ${next}`;
      return { kind: 'fail', reason: 'no-recorded-round', message: `${method}: the recording has no ${want} of task ${JSON.stringify(taskId)} after ${nameOf(call, pos)} (${what})` };
    }
    const pick = pickVariant(pool, call, want === 'update' ? { responses } : null);
    if (want === 'cancel') return { kind: 'serve', taskId, ...pick };
    const asked = poll >= 0 ? Object.keys(call.rounds[poll].task!.asked!) : [];
    const got = responses ? Object.keys(responses) : [];
    const missing = asked.filter((k) => !got.includes(k));
    if (missing.length > 0) return { kind: 'fail', reason: 'missing-answer', message: `tasks/update: inputResponses lacks ${keyList(missing)}, asked for by ${where}` };
    const extra = got.filter((k) => !asked.includes(k));
    if (extra.length === 0) return { kind: 'serve', taskId, ...pick };
    const warning = `inputResponses answers ${keyList(extra)}, never asked by ${where}`;
    return strict ? { kind: 'fail', reason: 'unasked-key', message: `tasks/update: ${warning}` } : { kind: 'serve', taskId, ...pick, warning };
  }
}
