// tasks/get for an unknown taskId is answered -32602.
import type { ConversationRule, LintContext } from '../../rule.js';
import { requestMeta } from '../../../decode/meta.js';
import { declaresTasks } from '../../../decode/task.js';
import { show } from '../support.js';
import { ledgerOf } from '../support-task.js';

/** tasks:789-799. "Unknown" as far as the capture shows: the task was not created in it
 *  and the server never answered a poll of it with a result (a heuristic, hence tier 2).
 *  A poll that did not declare the extension is out of scope: the same table makes -32021
 *  the answer a server must give it, whether it knows the task or not. */
export const tasksUnknownTaskCode: ConversationRule = {
  id: 'tasks/unknown-task-code',
  tier: 2,
  severity: 'error',
  clause: 'tasks:789-799',
  title: 'tasks/get for an unknown taskId is answered with a code other than -32602',
  scope: 'conversation',
  check(c, ctx, report) {
    if (c.task === undefined || c.task.created !== null) return;
    const events = ledgerOf(c, ctx).events;
    if (events.some((e) => e.kind === 'poll' && e.resultType !== null)) return;
    const bad = events.find((e) => e.kind === 'poll' && e.error !== null && e.error.code !== -32602 && pollDeclared(ctx, e.exchange));
    if (bad === undefined || bad.error === null) return;
    report({
      exchange: bad.exchange,
      message: `tasks/get for task ${show(c.task.taskId)}, which the server never showed it knows, was answered with error ${bad.error.code} (${show(bad.error.message)}); an unknown taskId must be answered -32602 (invalid params)`,
    });
  },
};

/** The exchange's tasks/get declared the tasks extension in its own clientCapabilities. */
function pollDeclared(ctx: LintContext, exchange: number): boolean {
  const req = ctx.decoded(exchange).sent.find((m) => m.kind === 'request' && m.method === 'tasks/get');
  return req !== undefined && declaresTasks(requestMeta(req.params).clientCapabilities);
}
