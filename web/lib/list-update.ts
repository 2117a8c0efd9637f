// Folds a list update from the worker into the page's copy of the conversation list:
// changed rows replace theirs (or join the list), removed ids leave it, counts are the
// worker's. Rows stay in capture order (firstSeq). Pure, so it is tested in Node.
import type { ConversationList, ConversationSummary, ListUpdate } from '../../worker/facade.js';

/** The list after `update`; `held` is the page's copy as of `update.since` (for a delta). */
export function applyListUpdate(held: ConversationList | null, update: ListUpdate): ConversationList | null {
  if (update.kind === 'whole') return update.list;
  if (held === null) return null; // a delta with nothing to apply it to: ask for the whole list
  if (update.changed.length === 0 && update.removed.length === 0) return { ...held, stats: update.stats, filter: update.filter };
  const gone = new Set(update.removed);
  const fresh = new Map(update.changed.map((r) => [r.id, r]));
  const items: ConversationSummary[] = [];
  for (const row of held.items) {
    if (gone.has(row.id)) continue;
    const f = fresh.get(row.id);
    items.push(f ?? row);
    fresh.delete(row.id);
  }
  let sorted = true;
  for (const row of fresh.values()) {
    if (items.length > 0 && items[items.length - 1].firstSeq > row.firstSeq) sorted = false;
    items.push(row);
  }
  if (!sorted) items.sort((a, b) => a.firstSeq - b.firstSeq);
  return { items, stats: update.stats, filter: update.filter };
}
