// Task input keys are unique over the task's lifetime.
import type { ConversationRule } from '../../rule.js';
import { show } from '../support.js';
import { ledgerOf } from '../support-task.js';

/** tasks:350. Fires when a key names two different requests, or comes back after its
 *  answer was delivered and a later poll had already dropped it (a poll right after the
 *  update that still shows it is eventual consistency, not reuse). Once per key. */
export const tasksKeyReused: ConversationRule = {
  id: 'tasks/key-reused',
  tier: 1,
  severity: 'error',
  clause: 'tasks:350',
  title: "a task's inputRequests reuse a delivered key, or use one key for two requests",
  scope: 'conversation',
  check(c, ctx, report) {
    if (c.task === undefined) return;
    const text = new Map<string, string>();
    const delivered = new Set<string>();
    const dropped = new Set<string>();
    const reported = new Set<string>();
    for (const e of ledgerOf(c, ctx).events) {
      if (e.kind === 'update' && e.error === null) for (const k of e.keys ?? []) if (text.has(k)) delivered.add(k);
      if (e.kind !== 'poll' || (e.requestText === null && e.status === null)) continue;
      const now = e.requestText ?? {};
      for (const k of delivered) if (!(k in now)) dropped.add(k);
      for (const [k, t] of Object.entries(now)) {
        if (reported.has(k)) continue;
        const before = text.get(k);
        let why: string | null = null;
        if (before !== undefined && before !== t) why = 'for a different request than before';
        else if (dropped.has(k)) why = 'again after its answer was delivered by tasks/update';
        if (before === undefined) text.set(k, t);
        if (why === null) continue;
        reported.add(k);
        report({
          exchange: e.exchange,
          message: `task ${show(c.task.taskId)} asks for key ${show(k)} ${why}; input keys must be unique over the task's lifetime, so use a new key for each new request`,
        });
      }
    }
  },
};
