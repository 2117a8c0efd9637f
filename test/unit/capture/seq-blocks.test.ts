// Numbers for relay records handed out from blocks reserved ahead (worker/capture/seq-blocks.ts)
// through the real CaptureStore on an in-memory IndexedDB: never one number twice, across two
// tabs, the tap and a reload; a number in hand costs no transaction; a block is reserved while
// a write of exchanges is still running; a clear drops the blocks held from before it.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { SEQ_BLOCK, SeqBlocks, type SeqStore } from '../../../worker/capture/seq-blocks.js';
import { CaptureStore } from '../../../worker/storage/index.js';
import { EXCHANGE_STORES } from '../../../worker/storage/chunks.js';

let n = 0;
const stores: CaptureStore[] = [];
function freshName(): string {
  return `seq-blocks-${++n}`;
}
function open(name: string): CaptureStore {
  const store = new CaptureStore(name);
  stores.push(store);
  return store;
}
afterEach(() => { for (const s of stores.splice(0)) s.close(); });

// The store, with its reservations counted.
function counted(store: CaptureStore): SeqStore & { asked: number } {
  const c = {
    asked: 0,
    reserveSeqs(session: string, count: number, after?: number) {
      c.asked += 1;
      return store.reserveSeqs(session, count, after);
    },
  };
  return c;
}

const tapped = (store: CaptureStore, session: string, id: string) =>
  store.addExchange({ id, session, source: 'sw', startedAt: 1, state: 'pending', request: { method: 'POST', url: 'http://t/mcp', headers: [] } });

describe('numbers reserved ahead', () => {
  it('never hands out a number twice across two tabs and the tap, and numbers past them all after a reload', async () => {
    const name = freshName();
    const tabA = open(name);
    const tabB = open(name);
    const { id: session } = await tabA.currentSession();
    const a = new SeqBlocks(tabA);
    const b = new SeqBlocks(tabB);
    const seen: number[] = [];
    for (let i = 0; i < 150; i++) {
      const [x, y, z] = await Promise.all([a.take(session, 1 + (i % 3)), b.take(session, 1), tapped(tabA, session, `tap-${i}`)]);
      seen.push(...x, ...y, z.seq);
    }
    // A backlog batch takes many at once, from whichever tab.
    seen.push(...(await b.take(session, 500)));
    expect(new Set(seen).size).toBe(seen.length);
    // A reload: a new worker on the same database numbers above everything handed out.
    const reloaded = new SeqBlocks(open(name));
    const next = await reloaded.take(session, 3);
    expect(Math.min(...next)).toBeGreaterThan(Math.max(...seen));
    // And the tap after it, above the reloaded block too.
    expect((await tapped(tabB, session, 'tap-last')).seq).toBeGreaterThan(Math.max(...next));
  });

  it('numbers a run of live records from memory: a reservation per block, asked ahead', async () => {
    const store = open(freshName());
    const { id: session } = await store.currentSession();
    const c = counted(store);
    const blocks = new SeqBlocks(c);
    const got: number[] = [];
    for (let i = 0; i < 4 * SEQ_BLOCK; i++) got.push(...(await blocks.take(session, 1)));
    expect(got).toEqual(Array.from({ length: 4 * SEQ_BLOCK }, (_, i) => i));
    // 4 blocks' worth of numbers in at most 5 transactions (the first, then one ahead per block).
    expect(c.asked).toBeLessThanOrEqual(5);
    // The next block was asked for ahead: a number is in hand, no wait for storage.
    await new Promise((r) => setTimeout(r, 20));
    expect(blocks.left(session)).toBeGreaterThan(0);
  });

  it('reserves a block while a write of exchanges is still running (a lookup of exchanges waits for it)', async () => {
    const name = freshName();
    const store = open(name);
    const { id: session } = await store.currentSession();
    // Another connection holds a write over the exchanges open until told to finish.
    const db = await openDB(name);
    const tx = db.transaction(EXCHANGE_STORES, 'readwrite');
    let finish = false;
    const writing = (async () => {
      while (!finish) await tx.objectStore('exchanges').count();
      await tx.done;
    })();
    const lookup = store.lookupExchanges([{ id: 'x' }]).then(() => 'lookup');
    const block = await new SeqBlocks(store).take(session, 1);
    expect(block).toEqual([0]);
    // The lookup over the exchanges is still queued behind the write.
    expect(await Promise.race([lookup, new Promise((r) => setTimeout(() => r('waiting'), 50))])).toBe('waiting');
    finish = true;
    await writing;
    expect(await lookup).toBe('lookup');
    db.close();
  });

  it('drops the numbers held from before a clear restarted the numbering', async () => {
    const store = open(freshName());
    const { id: session } = await store.currentSession();
    const blocks = new SeqBlocks(store);
    expect(await blocks.take(session, 1)).toEqual([0]);
    await store.clearExchanges(session);
    const tap = await tapped(store, session, 'after-clear');
    expect(tap.seq).toBe(0);
    // More than is in hand: the reservation sees the numbering went back and drops the old block.
    const next = await blocks.take(session, SEQ_BLOCK + 1);
    expect(next[0]).toBe(1);
    expect(new Set([...next, tap.seq]).size).toBe(next.length + 1);
    expect((await tapped(store, session, 'later')).seq).toBeGreaterThan(Math.max(...next));
  });

  it('hands out no number from before a clear once told of it, also with a reservation in flight', async () => {
    const store = open(freshName());
    const { id: session } = await store.currentSession();
    const blocks = new SeqBlocks(store);
    expect(await blocks.take(session, 1)).toEqual([0]);
    // Cleared through this page: the tap numbers from 0 again, and so must this worker.
    await store.clearExchanges(session);
    blocks.forget(session);
    const seen = [(await tapped(store, session, 'tap-0')).seq];
    for (let i = 0; i < 5; i++) {
      seen.push(...(await blocks.take(session, 1)));
      seen.push((await tapped(store, session, `tap-${i + 1}`)).seq);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(Math.min(...seen)).toBe(0);

    // A reservation asked for before the clear, answered after it, is not kept.
    const other = open(freshName());
    const { id: s2 } = await other.currentSession();
    const b2 = new SeqBlocks(other);
    const pending = b2.take(s2, 1);
    b2.forget(s2);
    await other.clearExchanges(s2);
    await pending.catch(() => undefined);
    const after = [(await tapped(other, s2, 'tap-a')).seq, ...(await b2.take(s2, 2)), (await tapped(other, s2, 'tap-b')).seq];
    expect(new Set(after).size).toBe(after.length);
  });
});
