// Merging relayed records (worker/storage/exchanges.ts mergeExchanges), on an in-memory
// IndexedDB: new ids numbered in order, an older or equal copy not written, a later copy in
// the same batch over an earlier one; and a backlog batch of thousands of mostly new ids
// reads only the stored copies it needs, listing the stored keys once instead of asking per
// id (asking cost a request per record).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { CaptureStore, type StoredExchange } from '../../../worker/storage/index.js';

let n = 0;
async function storeWith(stored: StoredExchange[]): Promise<CaptureStore> {
  const store = new CaptureStore(`merge-${++n}`);
  await store.createSession('Session 1');
  const s = await store.currentSession();
  // The session the records belong to, its numbering past them.
  for (const r of stored) await store.putExchange({ ...r, session: s.id });
  await store.mergeExchanges(s.id, []);
  return store;
}

const rec = (id: string, state: ExchangeRecord['state'], startedAt = 1): ExchangeRecord =>
  ({ v: 1, id, seq: 99, source: 'relay', startedAt, state, request: { method: 'POST', url: 'http://t/mcp', headers: [] } });

afterEach(() => vi.restoreAllMocks());

describe('merging relayed records', () => {
  it('merges a batch as one record at a time would', async () => {
    const store = new CaptureStore(`merge-${++n}`);
    const kept = { ...rec('old-final', 'complete'), seq: 0, session: 's' } as StoredExchange;
    const growing = { ...rec('old-pending', 'pending'), seq: 1, session: 's' } as StoredExchange;
    await store.putExchanges([kept, growing]);
    // Five numbers handed out already.
    await store.mergeExchanges('s', ['x0', 'x1', 'x2', 'x3', 'x4'].map((id) => rec(id, 'complete')));
    const written = await store.mergeExchanges('s', [
      rec('a', 'pending'), rec('old-final', 'complete'), rec('old-pending', 'complete'), rec('b', 'complete'), rec('a', 'complete'), rec('a', 'streaming'),
    ]);
    expect(written.map((r) => `${r.id} ${r.state} ${r.seq}`)).toEqual(['a pending 5', 'old-pending complete 1', 'b complete 6', 'a complete 5']);
    expect((await store.getExchange('a'))?.state).toBe('complete');
    expect(await store.getExchange('old-final')).toEqual(kept);
    expect((await store.getExchange('old-pending'))?.state).toBe('complete');
    expect(await store.countExchanges('s')).toBe(9);
    store.close();
  });

  it('reads only the stored copies of a big batch of mostly new ids, listing the stored keys once instead of asking per id', async () => {
    const store = await storeWith([]);
    const session = (await store.currentSession()).id;
    await store.mergeExchanges(session, [rec('old-final', 'complete'), rec('old-pending', 'pending')]);
    const gets = vi.spyOn(IDBObjectStore.prototype, 'get');
    const keyLists = vi.spyOn(IDBObjectStore.prototype, 'getAllKeys');
    const perId = [vi.spyOn(IDBObjectStore.prototype, 'getKey'), vi.spyOn(IDBIndex.prototype, 'getKey')];
    const fresh = Array.from({ length: 200 }, (_, i) => rec(`new-${i}`, 'complete', 10 + i));
    const written = await store.mergeExchanges(session, [...fresh.slice(0, 100), rec('old-final', 'complete'), rec('old-pending', 'complete'), ...fresh.slice(100)]);
    const asked = gets.mock.calls.map(([key]) => String(key)).filter((k) => k !== session);
    expect(asked.sort()).toEqual(['old-final', 'old-pending']);
    expect(keyLists.mock.calls.length).toBeLessThanOrEqual(2);
    // Each held id is looked up in both places (a value of its own, the chunk index); no other id is.
    expect(perId.map((s) => s.mock.calls.length)).toEqual([0, 2]);
    // Merged as before: new ids numbered in order after the session's last, the final copy kept.
    expect(written).toHaveLength(201);
    expect(written[0]!.seq).toBe(2);
    expect(written.at(-1)!.seq).toBe(201);
    expect((await store.getExchange('old-final'))?.state).toBe('complete');
    expect((await store.getExchange('old-pending'))?.state).toBe('complete');
    store.close();
  });
});
