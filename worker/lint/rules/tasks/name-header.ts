// On HTTP, Mcp-Name carries the taskId of tasks/* requests, so a load balancer can route
// them to the instance holding the task.
import type { ExchangeRule } from '../../rule.js';
import { header } from '../../../decode/headers.js';
import { taskIdOf } from '../../../decode/task.js';
import { describe, isModernPost, show } from '../support.js';
import { taskRequests } from '../support-task.js';
import { taskNameProblem } from '../support-task-header.js';

/** tasks:509-511. */
export const tasksNameHeader: ExchangeRule = {
  id: 'tasks/name-header',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'tasks:509-511',
  title: 'Mcp-Name is missing or differs from params.taskId on a tasks/* request',
  scope: 'exchange',
  transport: 'http',
  check(d, record, _ctx, report) {
    if (!isModernPost(d, record.request.method)) return;
    const requests = taskRequests(d);
    if (requests.length === 0) return;
    const raw = header(record.request.headers, 'Mcp-Name');
    for (const { request } of requests) {
      const taskId = taskIdOf(request.params);
      if (taskId === null) continue;
      const what = taskNameProblem(raw, taskId);
      if (what === null) continue;
      report({ exchange: d.seq, message: `Mcp-Name ${what} on ${describe(request)}, whose params.taskId is ${show(taskId)}; send Mcp-Name equal to the taskId on tasks/get, tasks/update and tasks/cancel` });
    }
  },
};
