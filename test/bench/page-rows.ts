// The page's work for one live call's list update, by the size of the list it holds: the
// copy kept in place (web/lib/row-store.ts: apply the delta, then the entries to draw and the
// selected row's place) against the fold the page did before 2026-12-07 (a new array of
// every row, every row folded by run-groups.ts, the selection searched), side by side in one
// run, in Node. Each update adds one new conversation (a live call) and changes one held row.
// Prints p50 and p95 per update and the ratio; asserts nothing.
//
//   npx tsx test/bench/page-rows.ts [rows ...]        (default 333 33000 333000: the
//                                                     conversations of 1k, 100k and 1M exchanges)
import { loadavg } from 'node:os';
import type { ConversationList, ConversationSummary, ListUpdate } from '../../worker/facade.js';
import { RowStore } from '../../web/lib/row-store.js';
import { groupRuns } from '../../web/lib/run-groups.js';
import { foldListUpdate } from '../support/list-fold.js';

const UPDATES = 60;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const stats = { conversations: 0, exchanges: 0, errors: 0, warnings: 0, totalConversations: 0, filtered: false, expected: 0, checking: 0 };

function row(i: number, version = 0): ConversationSummary {
  return {
    id: `c${i}`, method: 'tools/call', name: 'book_flight', era: '2026-07-28', rounds: 3 + version, status: 'complete',
    findings: { error: 0, warning: 1, info: 0 }, firstSeq: i * 3, startedAt: 1.7e12 + i, durationMs: 12,
    hasState: true, ambiguous: false, httpStatus: 200,
  };
}

// The page's fold before the row store (test/support/list-fold.ts), then ConversationList's
// entries (groupRuns) and its selection effect (findIndex over the entries).
function before(held: ConversationList, update: Extract<ListUpdate, { kind: 'delta' }>, selected: string): ConversationList {
  const list = foldListUpdate(held, update)!;
  const entries = groupRuns(list.items, new Set(), selected);
  if (entries.findIndex((e) => e.kind === 'row' && e.item.id === selected) < -1) throw new Error('unreachable');
  return list;
}

function after(store: RowStore, update: ListUpdate, selected: string): void {
  const list = store.apply(update)!;
  const entries = store.entries(list.items, new Set(), selected);
  if (entries.indexOf(selected) < -1) throw new Error('unreachable');
}

console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const n of sizes.length ? sizes : [333, 33_000, 333_000]) {
  const items = Array.from({ length: n }, (_, i) => row(i));
  let held: ConversationList = { items: [...items], stats, filter: { ok: true } };
  const store = new RowStore();
  store.apply({ kind: 'whole', epoch: 0, list: { items: [...items], stats, filter: { ok: true } } });
  const selected = `c${Math.floor(n / 2)}`;
  const old: number[] = [];
  const now: number[] = [];
  for (let k = 1; k <= UPDATES; k++) {
    const update: Extract<ListUpdate, { kind: 'delta' }> = { kind: 'delta', epoch: k, since: k - 1, changed: [row(n + k), row(k % n, k)], removed: [], stats, filter: { ok: true } };
    // Interleaved, the order alternating, so drift and GC fall on both.
    const runs: [number[], () => void][] = [[old, () => { held = before(held, update, selected); }], [now, () => after(store, update, selected)]];
    if (k % 2) runs.reverse();
    for (const [into, fn] of runs) {
      const t0 = performance.now();
      fn();
      into.push(performance.now() - t0);
    }
  }
  console.log(`${n} rows: per live update, before p50 ${pct(old, 0.5).toFixed(2)} ms, p95 ${pct(old, 0.95).toFixed(2)} ms; in place p50 ${pct(now, 0.5).toFixed(3)} ms, p95 ${pct(now, 0.95).toFixed(3)} ms; p50 ratio ${(pct(now, 0.5) / pct(old, 0.5)).toFixed(4)}x`);
}
