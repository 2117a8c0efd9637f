// Sorting the conversation list by a column header, as browser devtools do: a click sorts
// ascending, a second click descending, a third gives back capture order. Ties keep capture
// order, so a sort never shuffles equal rows. Pure: the rows' state applies it.
import type { ConversationSummary } from '../../worker/facade.js';
import type { ColumnId } from './pane-fit.js';

export interface RowSort {
  column: ColumnId;
  dir: 'ascending' | 'descending';
}

const STATUS_ORDER: Record<string, number> = { 'in-progress': 0, input_required: 1, complete: 2, abandoned: 3, error: 4 };

/** A number or text to compare rows by in one column; null sorts last either way. */
function keyOf(c: ConversationSummary, column: ColumnId): number | string | null {
  switch (column) {
    case 'method': return c.method;
    case 'name': return c.name ?? c.method;
    case 'rounds': return c.rounds;
    case 'status': return STATUS_ORDER[c.status] ?? 5;
    // Worst first when descending: errors outweigh any number of warnings, warnings any info.
    case 'findings': return c.findings.error * 1e8 + c.findings.warning * 1e4 + c.findings.info;
    case 'duration': return c.durationMs;
  }
}

/** The next sort after a click on `column`'s header. */
export function nextSort(current: RowSort | null, column: ColumnId): RowSort | null {
  if (current?.column !== column) return { column, dir: 'ascending' };
  return current.dir === 'ascending' ? { column, dir: 'descending' } : null;
}

export function sortRows(items: readonly ConversationSummary[], sort: RowSort | null): readonly ConversationSummary[] {
  if (!sort) return items;
  const sign = sort.dir === 'ascending' ? 1 : -1;
  return items
    .map((c) => ({ c, k: keyOf(c, sort.column) }))
    .sort((a, b) => {
      if (a.k === null || b.k === null) return a.k === b.k ? a.c.firstSeq - b.c.firstSeq : a.k === null ? 1 : -1;
      const d = typeof a.k === 'number' && typeof b.k === 'number' ? a.k - b.k : String(a.k).localeCompare(String(b.k));
      return d !== 0 ? sign * d : a.c.firstSeq - b.c.firstSeq;
    })
    .map((x) => x.c);
}
