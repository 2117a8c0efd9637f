// The page's copy of the conversation list (web/lib/row-store.ts), kept in place, is the list
// a plain fold gives for any run of updates (whole lists, deltas with changed, new, out of
// order and removed rows), and its entries are the rows as run-groups.ts folds them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConversationList, ConversationSummary, ListUpdate } from '../../../worker/facade.js';
import { RowStore } from '../../../web/lib/row-store.js';
import { groupRuns } from '../../../web/lib/run-groups.js';
import { foldListUpdate as folded } from '../../support/list-fold.js';

const stats = { conversations: 0, exchanges: 0, errors: 0, warnings: 0, totalConversations: 0, filtered: false, expected: 0, checking: 0 };

function row(id: string, firstSeq: number, version: number, run?: { run: string; origin: 'tamper' | 'discovery' | 'resend' }): ConversationSummary {
  return {
    id, method: 'tools/call', name: `tool-${version}`, era: '2026-07-28', rounds: version, status: 'complete',
    findings: { error: version % 2, warning: 0, info: 0 }, firstSeq, startedAt: firstSeq, durationMs: null,
    hasState: false, ambiguous: false, httpStatus: 200, ...(run ?? {}),
  };
}

// A step: a whole list, or a delta. Ids are drawn from a small pool so deltas hit held rows,
// firstSeq grows mostly (live appends) but not always; some rows belong to Console runs.
const runOf = fc.option(fc.record({ run: fc.constantFrom('r1', 'r2'), origin: fc.constantFrom<'tamper' | 'discovery' | 'resend'>('tamper', 'discovery', 'resend') }), { nil: undefined });
const rowArb = fc.record({ id: fc.integer({ min: 0, max: 30 }), seq: fc.integer({ min: 0, max: 200 }), run: runOf });
const stepArb = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('whole' as const), rows: fc.array(rowArb, { maxLength: 12 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('delta' as const), rows: fc.array(rowArb, { maxLength: 5 }), removed: fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 2 }) }) },
);

describe('the page copy of the list', () => {
  it('equals the plain fold after any run of updates, and draws what run-groups folds', () => {
    fc.assert(fc.property(fc.array(stepArb, { minLength: 1, maxLength: 25 }), fc.constantFrom<string | null>(null, 'c3', 'c7'), (steps, selected) => {
      const store = new RowStore();
      let expected: ConversationList | null = null;
      let version = 0;
      for (const s of steps) {
        version += 1;
        // One row per id in an update; a whole list in capture order, each seq once (as the worker sends them).
        const seen = new Set<number>();
        const rows = s.rows.filter((r) => !seen.has(r.id) && seen.add(r.id)).map((r) => row(`c${r.id}`, r.seq * 100 + r.id, version, r.run));
        const update: ListUpdate = s.kind === 'whole'
          ? { kind: 'whole', epoch: version, list: { items: [...rows].sort((a, b) => a.firstSeq - b.firstSeq), stats, filter: { ok: true } } }
          : { kind: 'delta', epoch: version, since: version - 1, changed: rows, removed: s.removed.map((i) => `c${i}`), stats, filter: { ok: true } };
        const want = folded(expected, structuredClone(update));
        const got = store.apply(update);
        if (want === null) {
          expect(got).toBeNull();
          continue;
        }
        expected = want;
        expect(got).toEqual(want);
        for (const [i, r] of want.items.entries()) {
          expect(store.rowOf(r.id)).toEqual(r);
          expect(store.placeOf(r.id)).toBe(i);
        }
        const open = new Set(['r2']);
        const entries = store.entries(got!.items, open, selected);
        const drawn = groupRuns(want.items, open, selected);
        expect(entries.length).toBe(drawn.length);
        expect(Array.from({ length: entries.length }, (_, i) => entries.at(i))).toEqual(drawn);
        for (const e of drawn) if (e.kind === 'row') expect(entries.indexOf(e.item.id)).toBe(drawn.findIndex((d) => d.kind === 'row' && d.item.id === e.item.id));
        expect(entries.indexOf('nobody')).toBe(-1);
      }
    }), { numRuns: 300 });
  });

  it('asks for the whole list when a delta comes and nothing is held, also after a reset', () => {
    const store = new RowStore();
    const delta: ListUpdate = { kind: 'delta', epoch: 2, since: 1, changed: [row('c1', 1, 1)], removed: [], stats, filter: { ok: true } };
    expect(store.apply(delta)).toBeNull();
    store.apply({ kind: 'whole', epoch: 1, list: { items: [row('c0', 0, 1)], stats, filter: { ok: true } } });
    expect(store.apply(delta)?.items.map((r) => r.id)).toEqual(['c0', 'c1']);
    store.reset();
    expect(store.list).toBeNull();
    expect(store.rowOf('c0')).toBeUndefined();
    expect(store.apply(delta)).toBeNull();
  });

  it('appends a live row without walking the list, and hands out a new list object over the same rows', () => {
    const store = new RowStore();
    const items = Array.from({ length: 1000 }, (_, i) => row(`c${i}`, i, 1));
    const first = store.apply({ kind: 'whole', epoch: 1, list: { items, stats, filter: { ok: true } } })!;
    // A walk of the rows would read every row's fields: a row that throws when read says none was.
    const untouchable = new Proxy(items[500]!, { get: () => { throw new Error('row 500 was read'); } });
    items[500] = untouchable;
    const next = store.apply({ kind: 'delta', epoch: 2, since: 1, changed: [row('c1000', 1000, 2), row('c3', 3, 2)], removed: [], stats, filter: { ok: true } })!;
    expect(next).not.toBe(first);
    expect(next.items).toBe(first.items);
    expect(store.placeOf('c1000')).toBe(1000);
    expect(store.rowOf('c3')?.rounds).toBe(2);
    const entries = store.entries(next.items, new Set(), null);
    expect(entries.length).toBe(1001);
    expect(entries.indexOf('c1000')).toBe(1000);
  });

  it('hands out the same entry for a row an update did not change, so the view does not draw it again', () => {
    const store = new RowStore();
    const first = store.apply({ kind: 'whole', epoch: 1, list: { items: [row('a', 1, 1), row('b', 2, 1), row('c', 3, 1)], stats, filter: { ok: true } } })!;
    const before = store.entries(first.items, new Set(), null);
    const [a, b, c] = [before.at(0), before.at(1), before.at(2)];
    expect(before.at(0)).toBe(a); // read twice, one entry
    const next = store.apply({ kind: 'delta', epoch: 2, since: 1, changed: [row('b', 2, 2), row('d', 4, 2)], removed: [], stats, filter: { ok: true } })!;
    const after = store.entries(next.items, new Set(), null);
    expect(after.at(0)).toBe(a);
    expect(after.at(2)).toBe(c);
    expect(after.at(1)).not.toBe(b);
    expect(after.at(1)).toEqual({ kind: 'row', item: row('b', 2, 2), member: false });
    expect(after.at(3)).toEqual({ kind: 'row', item: row('d', 4, 2), member: false });
    expect(after.at(4)).toBeUndefined();
  });
});
