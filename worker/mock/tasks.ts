// The mock's side of the tasks extension: after it served a call whose recorded answer
// created a task, the client's tasks/get, tasks/update and tasks/cancel for that taskId
// follow the recorded task round by round. A poll gets the next recorded poll, or the last
// one again while the recording's client was answering (the task waits for it, as a real
// server's would); an update or a cancel takes the next recorded step of its kind, checked
// against the keys the last poll asked for. Pure decisions: the matcher serves them.
import type { MockBook, RecordedCall } from './book.js';
import { nameOf } from './closest.js';

export const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Which recorded round answers a task request, or why none does. */
export type TaskDecision =
  | { kind: 'serve'; call: RecordedCall; round: number; warning?: string }
  | { kind: 'fail'; reason: string; message: string };

export class TaskFollower {
  /** Where each task served so far stands: its call and the last round it moved to. */
  private readonly at = new Map<string, { call: RecordedCall; pos: number }>();

  constructor(private readonly book: MockBook) {}

  /** The mock served round 0 of `call`: when it created a task, the task starts there. */
  started(call: RecordedCall): void {
    if (call.taskId !== undefined) this.at.set(call.taskId, { call, pos: 0 });
  }

  /** Moves the task the answer chosen belongs to (call after serving a 'serve' decision). */
  moved(call: RecordedCall, round: number): void {
    if (call.taskId !== undefined) this.at.set(call.taskId, { call, pos: Math.max(round, this.at.get(call.taskId)?.pos ?? 0) });
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
    const rounds = call.rounds;
    const stepAt = (i: number) => rounds[i]?.task?.step;
    if (method === 'tasks/get') {
      if (stepAt(pos + 1) === 'get') return { kind: 'serve', call, round: pos + 1 };
      for (let i = pos; i > 0; i--) if (stepAt(i) === 'get') return { kind: 'serve', call, round: i };
      return { kind: 'fail', reason: 'no-recorded-round', message: `tasks/get: the recording has no poll of task ${JSON.stringify(taskId)} after ${nameOf(call, pos)}` };
    }
    // The next step that is not a poll: a client may skip polls the recording's client made.
    let next = pos + 1;
    while (stepAt(next) === 'get') next++;
    const want = method === 'tasks/update' ? 'update' : 'cancel';
    if (stepAt(next) !== want) {
      const what = stepAt(next) === undefined ? 'the recorded task ends there' : `its next step is a ${stepAt(next)}`;
      return { kind: 'fail', reason: 'no-recorded-round', message: `${method}: the recording has no ${want} of task ${JSON.stringify(taskId)} after ${nameOf(call, pos)} (${what})` };
    }
    if (want === 'cancel') return { kind: 'serve', call, round: next };
    // The keys the last poll before the update asked for.
    let asked: Record<string, string> | null = null;
    let poll = -1;
    for (let i = next - 1; i > 0 && poll < 0; i--) if (stepAt(i) === 'get' && rounds[i].task?.asked) (asked = rounds[i].task!.asked), (poll = i);
    const want2 = asked ? Object.keys(asked) : [];
    const got = responses ? Object.keys(responses) : [];
    const where = poll >= 0 ? nameOf(call, poll) : nameOf(call, pos);
    const missing = want2.filter((k) => !got.includes(k));
    if (missing.length > 0) return { kind: 'fail', reason: 'missing-answer', message: `tasks/update: inputResponses lacks ${missing.map((k) => JSON.stringify(k)).join(', ')}, asked for by ${where}` };
    const extra = got.filter((k) => !want2.includes(k));
    if (extra.length === 0) return { kind: 'serve', call, round: next };
    const text = `inputResponses answers ${extra.map((k) => JSON.stringify(k)).join(', ')}, never asked by ${where}`;
    return strict ? { kind: 'fail', reason: 'unasked-key', message: `tasks/update: ${text}` } : { kind: 'serve', call, round: next, warning: text };
  }
}
