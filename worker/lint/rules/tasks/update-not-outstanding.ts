// tasks/update may answer only keys that are currently outstanding.
import type { ConversationRule } from '../../rule.js';
import { show } from '../support.js';
import { ledgerOf } from '../support-task.js';

/** tasks:362-364, 377-379. Outstanding: asked by the latest poll answered before the
 *  update was sent, and not answered by an earlier update. */
export const tasksUpdateNotOutstanding: ConversationRule = {
  id: 'tasks/update-not-outstanding',
  tier: 1,
  severity: 'warning',
  clause: 'tasks:362-364, 377-379',
  title: 'a tasks/update answers a key that is not currently outstanding',
  scope: 'conversation',
  check(c, ctx, report) {
    if (c.task === undefined) return;
    const events = ledgerOf(c, ctx).events;
    const ever = new Set<string>();
    const answered = new Set<string>();
    for (const e of events) {
      if (e.kind !== 'update') continue;
      let latest: Set<string> | null = null;
      for (const p of events) {
        if (p.kind !== 'poll' || p.status === null || p.answeredAt === null || p.answeredAt > e.sentAt) continue;
        for (const k of Object.keys(p.requests ?? {})) ever.add(k);
        latest = new Set(p.status === 'input_required' ? Object.keys(p.requests ?? {}) : []);
      }
      for (const k of e.keys ?? []) {
        const why = !ever.has(k) ? 'was never asked for' : answered.has(k) ? 'was already answered' : latest !== null && !latest.has(k) ? 'is no longer asked for (superseded)' : null;
        if (why !== null) {
          report({
            exchange: e.exchange,
            message: `tasks/update for task ${show(c.task.taskId)} answers key ${show(k)}, which ${why}; answer only the keys the latest tasks/get lists as outstanding, and track answered keys so none is sent twice`,
          });
        }
      }
      if (e.error === null) for (const k of e.keys ?? []) answered.add(k);
    }
  },
};
