// A tasks/get reporting input_required must list every outstanding request.
import type { ConversationRule } from '../../rule.js';
import { show } from '../support.js';
import { ledgerOf } from '../support-task.js';

/** tasks:304-340. Compared with the poll before: a key asked there, not answered by a
 *  tasks/update since, and missing now, while the task stayed input_required in between
 *  (a task that went back to working may have dropped the question). */
export const tasksInputIncomplete: ConversationRule = {
  id: 'tasks/input-incomplete',
  tier: 1,
  severity: 'error',
  clause: 'tasks:304-340',
  title: 'a tasks/get reporting input_required omits a key that is still outstanding',
  scope: 'conversation',
  check(c, ctx, report) {
    if (c.task === undefined) return;
    let asked: Set<string> | null = null;
    for (const e of ledgerOf(c, ctx).events) {
      if (e.kind === 'update' || e.kind === 'retry') for (const k of e.keys ?? []) asked?.delete(k);
      if (e.kind !== 'poll' || e.status === null) continue;
      if (e.status !== 'input_required') {
        asked = null;
        continue;
      }
      const now = Object.keys(e.requests ?? {});
      const missing = asked === null ? [] : [...asked].filter((k) => !now.includes(k));
      if (missing.length > 0) {
        report({
          exchange: e.exchange,
          message: `tasks/get for task ${show(c.task.taskId)} reports input_required without ${missing.map(show).join(', ')}, asked by the previous poll and not answered by any tasks/update since; input_required must carry every outstanding request`,
        });
      }
      asked = new Set(now);
    }
  },
};
