// Mcp-Name on tasks/get, tasks/update and tasks/cancel carries params.taskId, so a load
// balancer can route them to the instance holding the task (tasks:509-511). Shared by the
// tasks/name-header rule and the relay's front for served stdio servers
// (server/relay/stdio-front.ts), so the front refuses exactly what the rule would report.
// Not a rule: rules/index.ts never lists it.
import type { HeaderPair, RpcMessage } from '../../protocol.js';
import { decodeHeaderValue, header } from '../../decode/headers.js';
import { TASK_METHODS, taskIdOf } from '../../decode/task.js';
import type { HeaderProblem } from './support-http.js';
import { show } from './support.js';

/** What is wrong with `raw` (the Mcp-Name value, undefined when absent) as the Mcp-Name of
 *  a tasks/* request with this taskId, or null when it is right. */
export function taskNameProblem(raw: string | undefined, taskId: string): string | null {
  if (raw === undefined) return 'is missing';
  const v = decodeHeaderValue(raw.trim());
  if (!v.ok) return `cannot be decoded (${v.problem})`;
  return v.value === taskId ? null : `is ${show(v.value)}`;
}

/** The Mcp-Name problems of the tasks/* requests among a POST's body messages (a request
 *  without a string taskId has a params problem, not a header one). */
export function taskHeaderProblems(headers: readonly HeaderPair[], sent: readonly RpcMessage[]): HeaderProblem[] {
  const out: HeaderProblem[] = [];
  const raw = header(headers, 'Mcp-Name');
  for (const m of sent) {
    if (m.kind !== 'request' || m.method === undefined || !TASK_METHODS.has(m.method)) continue;
    const taskId = taskIdOf(m.params);
    if (taskId === null) continue;
    const what = taskNameProblem(raw, taskId);
    if (what !== null) out.push({ header: 'Mcp-Name', message: m, what: `${what} but params.taskId is ${show(taskId)}` });
  }
  return out;
}
