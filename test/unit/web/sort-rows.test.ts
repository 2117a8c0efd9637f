import { describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../worker/facade.ts';
import { nextSort, sortRows } from '../../../web/lib/sort-rows.ts';

const row = (firstSeq: number, durationMs: number | null, error = 0, warning = 0): ConversationSummary =>
  ({ id: `c${firstSeq}`, firstSeq, method: 'tools/call', name: `t${firstSeq}`, rounds: 1, status: 'complete', durationMs, findings: { error, warning, info: 0 } }) as ConversationSummary;

describe('sorting the conversation list by a column', () => {
  it('cycles ascending, descending, then capture order on the same header, and starts ascending on another', () => {
    const up = nextSort(null, 'duration');
    expect(up).toEqual({ column: 'duration', dir: 'ascending' });
    const down = nextSort(up, 'duration');
    expect(down).toEqual({ column: 'duration', dir: 'descending' });
    expect(nextSort(down, 'duration')).toBeNull();
    expect(nextSort(down, 'name')).toEqual({ column: 'name', dir: 'ascending' });
  });

  it('keeps capture order among equal rows and puts unknown durations last either way', () => {
    const rows = [row(0, 50), row(1, null), row(2, 10), row(3, 50)];
    expect(sortRows(rows, { column: 'duration', dir: 'ascending' }).map((r) => r.firstSeq)).toEqual([2, 0, 3, 1]);
    expect(sortRows(rows, { column: 'duration', dir: 'descending' }).map((r) => r.firstSeq)).toEqual([0, 3, 2, 1]);
    expect(sortRows(rows, null)).toBe(rows);
  });

  it('ranks one error above any number of warnings', () => {
    const rows = [row(0, 1, 0, 40), row(1, 1, 1, 0), row(2, 1)];
    expect(sortRows(rows, { column: 'findings', dir: 'descending' }).map((r) => r.firstSeq)).toEqual([1, 0, 2]);
  });
});
