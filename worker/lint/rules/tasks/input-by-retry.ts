// Task input goes through tasks/update, never through retries of the original call.
import type { ConversationRule } from '../../rule.js';
import { describe, show } from '../support.js';
import { ledgerOf } from '../support-task.js';

/** tasks:588-591. The retry was threaded into the task (thread/task-linker.ts) because it
 *  answers the keys the task's latest poll asked for. */
export const tasksInputByRetry: ConversationRule = {
  id: 'tasks/input-by-retry',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'tasks:588-591',
  title: "the client answers a task's input by retrying the original tools/call",
  scope: 'conversation',
  check(c, ctx, report) {
    if (c.task === undefined) return;
    for (const e of ledgerOf(c, ctx).events) {
      if (e.kind !== 'retry') continue;
      const req = ctx.request(c.rounds[e.round]);
      report({
        exchange: e.exchange,
        message: `${describe(req)} carries inputResponses ${(e.keys ?? []).map(show).join(', ')} for task ${show(c.task.taskId)}; once a task exists, answer its input with tasks/update (taskId and inputResponses), not by retrying the call that created it`,
      });
    }
  },
};
