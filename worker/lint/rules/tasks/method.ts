// Only tools/call supports tasks.
import type { ExchangeRule } from '../../rule.js';
import { resultType } from '../../../decode/jsonrpc.js';
import { TASK_METHODS } from '../../../decode/task.js';
import { describe, requestFor } from '../support.js';

/** tasks:85-91. A tasks/get, tasks/update or tasks/cancel answered "task" creates nothing:
 *  it is a result with the wrong resultType, which tasks/result-type reports (as a warning
 *  when it copies the extension's examples), so this rule stays out of it. */
export const tasksMethod: ExchangeRule = {
  id: 'tasks/method',
  tier: 1,
  severity: 'error',
  clause: 'tasks:85-91',
  title: 'a task is created for a method other than tools/call',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const m of d.received) {
      if (m.kind !== 'result' || resultType(m) !== 'task') continue;
      const req = requestFor(d, m);
      if (req === undefined || req.method === 'tools/call' || (req.method !== undefined && TASK_METHODS.has(req.method))) continue;
      report({
        exchange: d.seq,
        message: `${describe(req)} was answered with a task (resultType "task"); only tools/call supports tasks, so answer ${req.method ?? 'it'} with a complete result`,
      });
    }
  },
};
