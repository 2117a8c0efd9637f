// The page's fold of a list update into its copy of the conversation list, as the page did it
// before it kept the copy in place (web/lib/list-update.ts until 2026-12-07): a new array of
// every row, changed rows in their places, removed ones gone, new ones after, sorted by first
// exchange when a new row belongs before one before it. The reference the row store is
// property-tested against (test/unit/web/row-store.test.ts) and the "before" of its bench
// (test/bench/page-rows.ts).
import type { ConversationList, ConversationSummary, ListUpdate } from '../../worker/facade.js';

/** The list after `update`; null for a delta with nothing held (the whole list must be asked for). */
export function foldListUpdate(held: ConversationList | null, update: ListUpdate): ConversationList | null {
  if (update.kind === 'whole') return update.list;
  if (held === null) return null;
  const gone = new Set(update.removed);
  const fresh = new Map(update.changed.map((r) => [r.id, r]));
  const items: ConversationSummary[] = [];
  for (const row of held.items) {
    if (gone.has(row.id)) continue;
    items.push(fresh.get(row.id) ?? row);
    fresh.delete(row.id);
  }
  let sorted = true;
  for (const r of fresh.values()) {
    if (items.length > 0 && items[items.length - 1]!.firstSeq > r.firstSeq) sorted = false;
    items.push(r);
  }
  if (!sorted) items.sort((a, b) => a.firstSeq - b.firstSeq);
  return { items, stats: update.stats, filter: update.filter };
}
