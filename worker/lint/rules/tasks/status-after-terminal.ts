// completed, failed and cancelled are final.
import type { ConversationRule } from '../../rule.js';
import { show } from '../support.js';
import { ledgerOf } from '../support-task.js';
import { isTerminal } from '../../../thread/task-ledger.js';

/** tasks:151-159, 232-252. Once per task, at the first status that breaks it. */
export const tasksStatusAfterTerminal: ConversationRule = {
  id: 'tasks/status-after-terminal',
  tier: 1,
  severity: 'error',
  clause: 'tasks:151-159, 232-252',
  title: 'a task reports another status after completed, failed or cancelled',
  scope: 'conversation',
  check(c, ctx, report) {
    if (c.task === undefined) return;
    let terminal: string | null = null;
    for (const e of ledgerOf(c, ctx).events) {
      if (e.status === null) continue;
      if (terminal === null) {
        if (isTerminal(e.status)) terminal = e.status;
        continue;
      }
      if (e.status === terminal) continue;
      report({
        exchange: e.exchange,
        message: `task ${show(c.task.taskId)} reported ${show(terminal)} and later ${show(e.status)}; completed, failed and cancelled are terminal, and a task must not leave them`,
      });
      return;
    }
  },
};
