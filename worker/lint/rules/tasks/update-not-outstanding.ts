// tasks/update may answer only keys that are currently outstanding.
import type { ConversationRule } from '../../rule.js';
import type { TaskEvent } from '../../../thread/task-ledger.js';
import { show } from '../support.js';
import { ledgerOf } from '../support-task.js';

/** tasks:362-364, 377-379. Outstanding: asked by the latest poll answered before the
 *  update was sent, and not answered by an earlier update. A key the server asked for
 *  anew after its answer (dropped and back, or naming another request) is outstanding
 *  again: the client answers what it was asked, and tasks/key-reused blames the server. */
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
    // Key → when the update that answered it was sent.
    const answered = new Map<string, number>();
    for (const e of events) {
      if (e.kind !== 'update') continue;
      let latest: Set<string> | null = null;
      for (const p of pollsBefore(events, e.sentAt)) {
        for (const k of Object.keys(p.requests ?? {})) ever.add(k);
        latest = new Set(p.status === 'input_required' ? Object.keys(p.requests ?? {}) : []);
      }
      for (const k of e.keys ?? []) {
        const at = answered.get(k);
        const again = at !== undefined && !askedAnew(events, k, at, e.sentAt);
        const why = !ever.has(k) ? 'was never asked for' : again ? 'was already answered' : latest !== null && !latest.has(k) ? 'is no longer asked for (superseded)' : null;
        if (why !== null) {
          report({
            exchange: e.exchange,
            message: `tasks/update for task ${show(c.task.taskId)} answers key ${show(k)}, which ${why}; answer only the keys the latest tasks/get lists as outstanding, and track answered keys so none is sent twice`,
          });
        }
      }
      if (e.error === null) for (const k of e.keys ?? []) answered.set(k, e.sentAt);
    }
  },
};

/** Polls with a status, answered by `t`, in order. */
function pollsBefore(events: TaskEvent[], t: number): TaskEvent[] {
  return events.filter((p) => p.kind === 'poll' && p.status !== null && p.answeredAt !== null && p.answeredAt <= t);
}

/** Between the answer sent at `from` and `to`, the server asked for `key` as a new
 *  request: a poll dropped it and a later one listed it, or one listed it for a request
 *  other than the one answered. A poll that still shows the same request right after the
 *  answer is eventual consistency, not a new ask. */
function askedAnew(events: TaskEvent[], key: string, from: number, to: number): boolean {
  const before = pollsBefore(events, from).filter((p) => p.requestText !== null && key in p.requestText).at(-1)?.requestText?.[key];
  let dropped = false;
  for (const p of pollsBefore(events, to)) {
    if (p.answeredAt === null || p.answeredAt <= from) continue;
    const text = p.requestText?.[key];
    if (text === undefined) dropped = true;
    else if (dropped || (before !== undefined && text !== before)) return true;
  }
  return false;
}
