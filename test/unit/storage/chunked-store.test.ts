// Chunked storage (worker/storage/chunks.ts) through the real CaptureStore on an in-memory
// IndexedDB: a relay backlog or an import is stored a few hundred records per value, and
// every read (by id, by ids, paged, counted) finds each record wherever it lies; a copy of
// a stored id replaces it in place; a copy numbered new never overwrites someone else's.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDB } from 'idb';
import { CaptureStore, type StoredExchange } from '../../../worker/storage/index.js';
import { CHUNK_RECORDS } from '../../../worker/storage/chunks.js';

let n = 0;
const stores: CaptureStore[] = [];
function freshStore(): { store: CaptureStore; name: string } {
  const name = `chunked-${++n}`;
  const store = new CaptureStore(name);
  stores.push(store);
  return { store, name };
}
afterEach(() => { for (const s of stores.splice(0)) s.close(); });

const rec = (id: string, seq: number, session = 's', state: StoredExchange['state'] = 'complete'): StoredExchange => ({
  v: 1, id, seq, session, source: 'relay', startedAt: 1000 + seq, state,
  request: { method: 'POST', url: 'http://t/mcp', headers: [], body: `{"id":${seq}}` },
  response: { status: 200, receivedAt: 1001 + seq, headers: [], body: `{"result":${seq}}` },
});

async function rawCount(name: string, storeName: 'chunks' | 'exchanges'): Promise<number> {
  const db = await openDB(name);
  try { return await db.count(storeName); } finally { db.close(); }
}

async function everyRecord(store: CaptureStore, session: string): Promise<StoredExchange[]> {
  const out: StoredExchange[] = [];
  for await (const page of store.allExchanges(session)) out.push(...page);
  return out;
}

describe('chunked storage', () => {
  it('stores a big batch a chunk per CHUNK_RECORDS records and reads each back by id, by ids, paged and counted', async () => {
    const { store, name } = freshStore();
    const recs = Array.from({ length: 2 * CHUNK_RECORDS + 17 }, (_, i) => rec(`r${i}`, i));
    await store.putExchanges(recs);
    expect(await rawCount(name, 'chunks')).toBe(3);
    expect(await rawCount(name, 'exchanges')).toBe(0);
    expect(await store.getExchange('r250')).toEqual(recs[250]);
    expect(await store.getExchanges(['r3', 'nope', 'r416'])).toEqual([recs[3], undefined, recs[416]]);
    const all = await everyRecord(store, 's');
    expect(all.map((r) => r.id).sort()).toEqual(recs.map((r) => r.id).sort());
    expect(await store.countExchanges('s')).toBe(recs.length);
  });

  it('keeps a few records a value each, and pages them before the chunks', async () => {
    const { store, name } = freshStore();
    await store.putExchanges([rec('a', 0), rec('b', 1)]);
    await store.putExchanges(Array.from({ length: 30 }, (_, i) => rec(`c${i}`, 2 + i)));
    expect(await rawCount(name, 'exchanges')).toBe(2);
    expect(await rawCount(name, 'chunks')).toBe(1);
    const first = await store.pageExchanges('s', { limit: 10 });
    expect(first.items.map((r) => r.id)).toEqual(['a', 'b']);
    const second = await store.pageExchanges('s', { after: first.next, limit: 10 });
    expect(second.items).toHaveLength(30);
    expect(second.next).toBeNull();
  });

  it('replaces a chunked record where it lies when a later copy is put, merged or updated', async () => {
    const { store, name } = freshStore();
    await store.putExchanges(Array.from({ length: 50 }, (_, i) => rec(`r${i}`, i, 's', 'pending')));
    await store.putExchange({ ...rec('r7', 7), response: { ...rec('r7', 7).response!, body: 'put' } });
    const merged = await store.mergeExchanges('s', [rec('r8', 99)]);
    expect(merged.map((r) => r.seq)).toEqual([8]); // a known id keeps its number
    await store.updateExchange('r9', (r) => { r.error = 'updated'; });
    expect((await store.getExchange('r7'))?.response?.body).toBe('put');
    expect((await store.getExchange('r8'))?.state).toBe('complete');
    expect((await store.getExchange('r9'))?.error).toBe('updated');
    expect(await store.countExchanges('s')).toBe(50);
    expect(await rawCount(name, 'exchanges')).toBe(0);
    expect(await rawCount(name, 'chunks')).toBe(1);
  });

  it('never writes a copy numbered new over an id stored meanwhile, in a chunk or a value of its own, and stores the rest', async () => {
    const { store } = freshStore();
    await store.putExchanges(Array.from({ length: 20 }, (_, i) => rec(`theirs${i}`, i)));
    await store.putExchange(rec('single', 20));
    const mine = Array.from({ length: 40 }, (_, i) => ({ copy: rec(`mine${i}`, 100 + i), fresh: true }));
    mine.push({ copy: { ...rec('theirs3', 500), error: 'mine' }, fresh: true }, { copy: { ...rec('single', 501), error: 'mine' }, fresh: true });
    const collided = await store.writeReserved(mine);
    expect(collided.sort()).toEqual(['single', 'theirs3']);
    expect((await store.getExchange('theirs3'))?.seq).toBe(3);
    expect((await store.getExchange('single'))?.seq).toBe(20);
    expect((await store.getExchange('mine39'))?.seq).toBe(139);
    expect(await store.countExchanges('s')).toBe(61);
  });

  it('clears a session whole, its chunks too, and leaves other sessions alone', async () => {
    const { store } = freshStore();
    await store.putExchanges(Array.from({ length: 30 }, (_, i) => rec(`a${i}`, i, 'one')));
    await store.putExchanges(Array.from({ length: 30 }, (_, i) => rec(`b${i}`, i, 'two')));
    await store.putExchange(rec('a-single', 31, 'one'));
    await store.clearExchanges('one');
    expect(await store.countExchanges('one')).toBe(0);
    expect(await store.getExchange('a3')).toBeUndefined();
    expect(await store.countExchanges('two')).toBe(30);
    // An id freed by the clear can be stored again.
    await store.putExchanges(Array.from({ length: 30 }, (_, i) => rec(`a${i}`, i, 'one')));
    expect(await store.countExchanges('one')).toBe(30);
  });
});

describe('a chunk storage refuses', () => {
  it('leaves nothing of the write behind, so the same records are written whole on the next try', async () => {
    const { store } = freshStore();
    const put = IDBObjectStore.prototype.put;
    let refuse = true;
    const spy = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (refuse && this.name === 'chunks') throw new DOMException('The quota has been exceeded (test).', 'QuotaExceededError');
      return put.call(this, value, key);
    });
    const mine = Array.from({ length: 30 }, (_, i) => ({ copy: rec(`m${i}`, i), fresh: true }));
    await expect(store.writeReserved(mine)).rejects.toMatchObject({ kind: 'quota' });
    expect(await store.countExchanges('s')).toBe(0);
    refuse = false;
    expect(await store.writeReserved(mine)).toEqual([]);
    expect(await store.countExchanges('s')).toBe(30);
    expect(await store.getExchange('m29')).toEqual(mine[29]!.copy);
    spy.mockRestore();
  });
});
