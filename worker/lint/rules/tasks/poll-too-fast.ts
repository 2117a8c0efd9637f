// Clients should poll no faster than the task's pollIntervalMs.
import type { ConversationRule } from '../../rule.js';
import { show } from '../support.js';
import { ledgerOf } from '../support-task.js';

// Timers fire a little early and clocks are coarse: a gap within 10% of the interval is on time.
const SLACK = 0.9;

/** tasks:104-148. Between two polls with nothing sent in between (a poll right after an
 *  update or cancel looks for its effect), measured send to send against the interval the
 *  latest answer before the second poll asked for. Reported once per task, with a count. */
export const tasksPollTooFast: ConversationRule = {
  id: 'tasks/poll-too-fast',
  about: 'client',
  tier: 2,
  severity: 'info',
  clause: 'tasks:104-148',
  title: "the client polls tasks/get faster than the task's pollIntervalMs",
  scope: 'conversation',
  check(c, ctx, report) {
    if (c.task === undefined) return;
    let interval: number | null = null;
    let prevPoll: number | null = null;
    let first: { exchange: number; gap: number; interval: number } | null = null;
    let count = 0;
    for (const e of ledgerOf(c, ctx).events) {
      if (e.kind === 'poll' && prevPoll !== null && interval !== null && e.sentAt - prevPoll < interval * SLACK) {
        count++;
        first ??= { exchange: e.exchange, gap: e.sentAt - prevPoll, interval };
      }
      prevPoll = e.kind === 'poll' ? e.sentAt : null;
      if (e.pollIntervalMs !== null) interval = e.pollIntervalMs;
    }
    if (first === null) return;
    report({
      exchange: first.exchange,
      message: `the client polled task ${show(c.task.taskId)} ${count} time${count === 1 ? '' : 's'} sooner than its pollIntervalMs (first: ${first.gap} ms after the previous poll, interval ${first.interval} ms); wait pollIntervalMs between polls`,
    });
  },
};
