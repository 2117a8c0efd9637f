// Tasks (io.modelcontextprotocol/tasks), when the server declares them: the call made again
// with the extension declared and driven with the Console's task driver: rounds before the
// task answered as the stepper answers them, the task polled at its own interval, its
// outstanding input requests answered through tasks/update, until it ends or the poll
// budget is spent.
import type { ConsoleOrigin, ExchangeRecord } from '../protocol.js';
import { asObject, own } from '../decode/meta.js';
import { createTaskDriver, type TaskDriverState } from '../console/task-driver.js';
import { TASKS_EXTENSION, withTasksExtension } from '../console/task-request.js';
import { buildRequest } from '../console/request.js';
import { answerFor, CHECK_CAPABILITIES, type CheckCall, type DriveContext } from './drive.js';
import type { ProbeVerdict } from './types.js';

/** Polls and answers allowed on one task before the check gives up on it. */
const MAX_STEPS = 60;

const CLIENT = { clientInfo: { name: 'mrtr-inspector-check', version: '0.1.0' }, capabilities: CHECK_CAPABILITIES };

/** Whether `server/discover` declared the tasks extension. */
export function declaresTasks(discover: Record<string, unknown> | null): boolean {
  return own(asObject(own(asObject(own(discover ?? undefined, 'capabilities')), 'extensions')), TASKS_EXTENSION) !== undefined;
}

/**
 * Why the token probes cannot run on a task's input: a task asks through `tasks/get`
 * (a `complete` result with status `input_required`, never an InputRequiredResult: mrtr:192
 * forbids that on tasks/*) and is answered through `tasks/update {taskId, inputResponses}`
 * (tasks:304-381). Neither carries a requestState; the task's state is the server's, under
 * its taskId, so there is no token to change, cut, swap or replay.
 */
export const TASK_TOKEN_NOTE = 'a task asks through tasks/get and is answered with tasks/update, which carry no requestState (tasks:304-381; tasks/* never answer input_required, mrtr:192): there is no token to probe, the task keeps its state under its taskId';

/** Drives the call as a task; the verdict of the `task` probe and the traffic. `taskAsked`: the task took input through tasks/update. */
export async function driveTask(call: CheckCall, ctx: DriveContext, origin?: ConsoleOrigin): Promise<{ verdict: ProbeVerdict; detail: string; records: ExchangeRecord[]; taskAsked: boolean }> {
  const driver = createTaskDriver({ send: ctx.send, url: ctx.url, client: CLIENT, ids: ctx.ids, ...(origin ? { origin } : {}) });
  const first = buildRequest({ method: call.method, params: call.params, id: ctx.ids(), clientInfo: CLIENT.clientInfo, capabilities: withTasksExtension(CHECK_CAPABILITIES), ...(call.inputSchema !== undefined ? { inputSchema: call.inputSchema } : {}) });
  let s: TaskDriverState = await driver.start(first);
  for (let step = 0; step < MAX_STEPS && (s.phase === 'rounds' || s.phase === 'running'); step++) {
    const open = Object.entries(s.outstanding).filter(([k]) => !(k in s.answered));
    // A round before the task that asked for nothing (requestState only) is retried as is.
    if (open.length > 0 || s.phase === 'rounds') {
      for (const [key, req] of open) driver.answer(key, answerFor(req, 'accept', ctx.roots));
      s = await driver.submit();
    } else s = await driver.pollUntilSettled(1);
  }
  const records = s.sends.map((x) => x.record);
  const taskAsked = s.sends.some((x) => x.kind === 'update');
  const note = taskAsked ? `; the token probes do not apply to its input: ${TASK_TOKEN_NOTE}` : '';
  const what = `${s.polls} poll${s.polls === 1 ? '' : 's'}, statuses ${s.timeline.map((t) => t.status).join(' → ') || 'none'}`;
  if (s.phase === 'not-task') return { verdict: 'not-applicable', detail: s.message ?? 'answered without creating a task', records, taskAsked };
  if (s.phase === 'done') return { verdict: 'passed', detail: `task ${s.status} (${what})${s.reusedKeys.length > 0 ? `; keys re-used for other requests: ${s.reusedKeys.join(', ')}` : ''}${note}`, records, taskAsked };
  return { verdict: 'warning', detail: `the task did not end within ${MAX_STEPS} polls and answers (${what}${s.message ? `; ${s.message}` : ''})${note}`, records, taskAsked };
}
