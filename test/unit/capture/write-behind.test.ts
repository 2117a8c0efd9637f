// Relay records shown before they are written (worker/capture/write-behind.ts): numbered in
// the order taken, laid in at once, written after, a later copy of an unwritten id keeping
// its number, an id another writer stored first merged into its copy and reported, a
// refused write reported with its copies, and a live take never queued behind a backlog.
import { describe, expect, it, vi } from 'vitest';
import { WriteBehind, type WriteBehindDeps } from '../../../worker/capture/write-behind.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { planMerge } from '../../../worker/storage/exchanges.js';
import { StorageError, type ReservedCopy, type StoredExchange } from '../../../worker/storage/index.js';

// Waits are on conditions: the bound only ends a test that went wrong (vi.waitFor's default,
// 1 s, is a clock a loaded CI machine can miss).
const WAIT = { timeout: 20_000 };

const rec = (id: string, state: ExchangeRecord['state'], startedAt: number): ExchangeRecord =>
  ({ v: 1, id, seq: 99, source: 'relay', startedAt, state, request: { method: 'POST', url: 'http://t/mcp', headers: [] } });

// A stand-in storage: numbers handed out a block at a time, stored copies looked up, writes
// logged and, when `gate` is set, held until the test lets them commit. As in IndexedDB,
// transactions on the exchanges (lookups and writes) run one after another in the order
// made; a block of numbers is reserved over the sessions alone, so it waits for none of them.
// `known`: the owner's copies (what was laid) stand in for the session the worker holds.
function harness(opts: { gate?: boolean; known?: boolean } = {}) {
  const rows = new Map<string, StoredExchange>();
  let nextSeq = 0;
  const log: string[] = [];
  const blocks: number[] = [];
  const pending: (() => void)[] = [];
  const taken: ExchangeRecord[][] = [];
  let collide = new Set<string>();
  let refuse = false;
  let sessionId = 's';
  let sessionReads = 0;
  let sessionFails = false;
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run);
    queue = next.catch(() => undefined);
    return next;
  };
  const store: WriteBehindDeps['store'] = {
    async currentSession() {
      sessionReads += 1;
      await new Promise((r) => setTimeout(r, 5));
      if (sessionFails) throw new StorageError('unknown', 'The settings could not be read (test).');
      return { id: sessionId, name: 'Session 1', createdAt: 0, nextSeq };
    },
    async reserveSeqs(_session, count) {
      await new Promise((r) => setTimeout(r, 1));
      blocks.push(count);
      const first = nextSeq;
      nextSeq += count;
      return { first, end: nextSeq, restarted: false };
    },
    lookupExchanges: (records) => inTurn(async () => {
      log.push(`lookup ${records.map((r) => r.id).join(',')}`);
      return records.map((r) => rows.get(r.id));
    }),
    writeReserved: (items: readonly ReservedCopy[]) => inTurn(() => {
      log.push(`write ${items.map((i) => `${i.fresh ? 'add' : 'put'}:${i.copy.id}@${i.copy.seq}`).join(',')}`);
      const run = async () => {
        if (refuse) throw new StorageError('quota', 'The disk is full (test).');
        const collided = items.filter((i) => collide.has(i.copy.id)).map((i) => i.copy.id);
        for (const i of items) if (!collide.has(i.copy.id)) rows.set(i.copy.id, i.copy);
        return collided;
      };
      if (!opts.gate) return run();
      return new Promise<string[]>((resolve, reject) => pending.push(() => void run().then(resolve, reject)));
    }),
    async mergeExchanges(session, records) {
      log.push(`merge ${records.map((r) => r.id).join(',')}`);
      return [];
    },
  };
  const laid: StoredExchange[] = [];
  const owned = new Map<string, StoredExchange>();
  const stored: StoredExchange[] = [];
  const refused: { ids: string[]; session: string | null }[] = [];
  const collided: string[] = [];
  const behind = new WriteBehind({
    store,
    laid: (r) => { laid.push(...r); for (const x of r) owned.set(x.id, x); },
    stored: (r) => void stored.push(...r),
    refused: (r, session) => void refused.push({ ids: r.map((x) => x.id), session }),
    collided: (_s, ids) => void collided.push(...ids),
    ...(opts.known ? { known: () => (id: string) => owned.get(id) } : {}),
  });
  return {
    behind, rows, log, blocks, laid, stored, refused, collided, taken,
    commitNext: () => pending.shift()?.(),
    pendingWrites: () => pending.length,
    setCollide: (ids: string[]) => { collide = new Set(ids); },
    setRefuse: (on: boolean) => { refuse = on; },
    setSession: (id: string) => { sessionId = id; },
    setSessionFails: (on: boolean) => { sessionFails = on; },
    sessionReads: () => sessionReads,
    take: (records: ExchangeRecord[], backlog = false) => behind.take(records, { backlog }),
    addStored: (r: StoredExchange) => rows.set(r.id, r),
  };
}

describe('write-behind of relay records', () => {
  it('numbers new ids in start order, lays them in before writing, and a later copy of an unwritten id keeps its number', async () => {
    const h = harness({ gate: true });
    const release = h.behind.hold();
    const first = h.take([rec('b', 'pending', 2), rec('a', 'complete', 1)], true);
    await first.laid;
    expect(h.laid.map((r) => `${r.id}@${r.seq}`)).toEqual(['a@0', 'b@1']);
    // The complete copy of b replaces the pending one in memory: no second numbering.
    const second = h.take([rec('b', 'complete', 2), rec('a', 'pending', 1)], true);
    await second.laid;
    expect(h.log.filter((l) => l.startsWith('lookup'))).toEqual(['lookup a,b']);
    expect(h.laid.map((r) => `${r.id}@${r.seq}:${r.state}`)).toEqual(['a@0:complete', 'b@1:pending', 'b@1:complete']);
    // Held: nothing written yet.
    await new Promise((r) => setTimeout(r, 10));
    expect(h.log.some((l) => l.startsWith('write'))).toBe(false);
    release();
    await vi.waitFor(() => expect(h.pendingWrites()).toBe(1), WAIT);
    // One write, the newest copy per id, each added as new.
    expect(h.log.at(-1)).toBe('write add:a@0,add:b@1');
    h.commitNext();
    expect(await first.written).toBe(true);
    expect(await second.written).toBe(true);
    expect(h.rows.get('b')!.state).toBe('complete');
    expect(h.stored.map((r) => r.id).sort()).toEqual(['a', 'b']);
  });

  it('lays one copy of an id read several times in one batch (a relay file has a line per step), the newest', async () => {
    const h = harness();
    const t = h.take([rec('f', 'pending', 1), rec('g', 'complete', 2), rec('f', 'streaming', 1), rec('f', 'complete', 1)]);
    await t.laid;
    expect(h.laid.map((r) => `${r.id}@${r.seq}:${r.state}`)).toEqual(['f@0:complete', 'g@1:complete']);
    expect(await t.written).toBe(true);
    expect(h.log.at(-1)).toBe('write add:f@0,add:g@1');
  });

  it('writes a pushed record at once, even while a drain holds the backlog back (the relay keeps no copy of it)', async () => {
    const h = harness();
    const release = h.behind.hold();
    const drained = h.take([rec('d1', 'complete', 1)], true);
    const pushed = h.take([rec('p1', 'complete', 2)]);
    expect(await pushed.written).toBe(true);
    expect(h.rows.has('p1')).toBe(true);
    expect(h.rows.has('d1')).toBe(false);
    release();
    expect(await drained.written).toBe(true);
    expect(h.rows.has('d1')).toBe(true);
  });

  it('puts (not adds) a later copy of an id whose first copy was written meanwhile', async () => {
    const h = harness({ gate: true });
    const first = h.take([rec('x', 'pending', 1)]);
    await vi.waitFor(() => expect(h.pendingWrites()).toBe(1), WAIT);
    // Taken while the first copy's add is in flight: kept in memory with its number.
    const second = h.take([rec('x', 'complete', 1)]);
    await second.laid;
    h.commitNext();
    expect(await first.written).toBe(true);
    await vi.waitFor(() => expect(h.pendingWrites()).toBe(1), WAIT);
    h.commitNext();
    expect(await second.written).toBe(true);
    expect(h.log).toEqual(['lookup x', 'write add:x@0', 'write put:x@0']);
    expect(h.rows.get('x')!.state).toBe('complete');
  });

  it('merges an id another writer stored first into its copy, reports it, and merges its later copies too', async () => {
    const h = harness();
    h.setCollide(['c']);
    const t = h.take([rec('c', 'complete', 1), rec('d', 'complete', 2)]);
    expect(await t.written).toBe(true);
    expect(h.collided).toEqual(['c']);
    expect(h.log).toContain('merge c');
    expect(h.stored.map((r) => r.id)).toEqual(['d']);
    h.setCollide([]);
    // A later copy of c is not put over what the other writer stored.
    h.addStored({ ...rec('c', 'pending', 1), seq: 7, session: 's' });
    await h.take([rec('c', 'complete', 1)]).written;
    expect(h.log.filter((l) => l.startsWith('write')).at(-1)).not.toContain('c@');
  });

  it('reports a write storage refuses with its copies and session, and says the batch was not written', async () => {
    const h = harness();
    h.setRefuse(true);
    const t = h.take([rec('e', 'complete', 1)]);
    await t.laid;
    expect(h.laid.map((r) => r.id)).toEqual(['e']);
    expect(await t.written).toBe(false);
    expect(h.refused).toEqual([{ ids: ['e'], session: 's' }]);
    // Numbered again by storage next time (nothing of it was written).
    h.setRefuse(false);
    expect(await h.take([rec('e', 'complete', 1)]).written).toBe(true);
    expect(h.log.filter((l) => l.startsWith('lookup'))).toEqual(['lookup e', 'lookup e']);
  });

  it('numbers a live take before the next chunk of a backlog is written', async () => {
    const h = harness({ gate: true });
    const release = h.behind.hold();
    const backlog = Array.from({ length: 450 }, (_, i) => rec(`k${i}`, 'complete', i));
    await h.take(backlog, true).laid;
    release();
    await vi.waitFor(() => expect(h.pendingWrites()).toBe(1), WAIT);
    // A live record arrives while the first chunk is being written.
    const live = h.take([rec('live', 'complete', 10_000)]);
    h.commitNext();
    await live.laid;
    await vi.waitFor(() => expect(h.pendingWrites()).toBe(1), WAIT);
    const reserveLive = h.log.indexOf('lookup live');
    const writes = h.log.map((l, i) => (l.startsWith('write') ? i : -1)).filter((i) => i >= 0);
    // Numbered after the first chunk and before the second.
    expect(reserveLive).toBeGreaterThan(writes[0]!);
    expect(reserveLive).toBeLessThan(writes[1]!);
    while (h.pendingWrites() > 0 || !(h.rows.has('live'))) {
      h.commitNext();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(await live.written).toBe(true);
    expect(h.rows.size).toBe(451);
  });

  it('lays a live record while a backlog chunk is still being written, numbered from the block in hand', async () => {
    const h = harness({ gate: true, known: true });
    const release = h.behind.hold();
    const backlog = Array.from({ length: 450 }, (_, i) => rec(`k${i}`, 'complete', i));
    await h.take(backlog, true).laid;
    release();
    await vi.waitFor(() => expect(h.pendingWrites()).toBe(1), WAIT);
    const blocksBefore = h.blocks.length;
    // The first chunk is in flight and stays so: the live record is listed all the same.
    const live = h.take([rec('live', 'pending', 10_000)]);
    await live.laid;
    expect(h.pendingWrites()).toBe(1);
    expect(h.rows.size).toBe(0);
    const laidLive = h.laid.filter((r) => r.id === 'live');
    expect(laidLive.map((r) => r.seq)).toEqual([450]);
    // Numbered from memory: no lookup of it in storage, no block reserved for it.
    expect(h.log.some((l) => l.includes('live'))).toBe(false);
    expect(h.blocks.length).toBe(blocksBefore);
    // Its later copy keeps the number, also once the first copy is written.
    while (!h.rows.has('live')) {
      h.commitNext();
      await new Promise((r) => setTimeout(r, 0));
    }
    await h.take([rec('live', 'complete', 10_000)]).laid;
    expect(h.laid.filter((r) => r.id === 'live').map((r) => `${r.seq}:${r.state}`)).toEqual(['450:pending', '450:complete']);
    while (h.pendingWrites() > 0 || h.rows.get('live')!.state !== 'complete') {
      h.commitNext();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(h.log.filter((l) => l.includes('live'))).toEqual(['write add:live@450', 'write put:live@450']);
    expect(new Set([...h.rows.values()].map((r) => r.seq)).size).toBe(451);
  });

  it('numbers a pushed copy of an id a backlog batch is numbering once: the push waits for that batch', async () => {
    const h = harness({ gate: true, known: true });
    const release = h.behind.hold();
    // A write over the exchanges in flight: the backlog batch's lookup queues behind it.
    const first = h.take([rec('p0', 'complete', 0)]);
    await vi.waitFor(() => expect(h.pendingWrites()).toBe(1), WAIT);
    const batch = h.take([rec('o1', 'complete', 1), rec('o2', 'pending', 2)], true);
    await new Promise((r) => setTimeout(r, 20));
    // The relay pushes o2 while the backlog still numbers it.
    const pushed = h.take([rec('o2', 'complete', 2)]);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.laid.some((r) => r.id === 'o2')).toBe(false);
    h.commitNext();
    await Promise.all([batch.laid, pushed.laid, first.written]);
    const o2 = h.laid.filter((r) => r.id === 'o2');
    expect(o2.map((r) => r.state)).toEqual(['pending', 'complete']);
    expect(new Set(o2.map((r) => r.seq)).size).toBe(1);
    release();
    while (h.rows.size < 3 || h.pendingWrites() > 0) {
      h.commitNext();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(h.rows.get('o2')!.state).toBe('complete');
    expect(h.log.filter((l) => l.startsWith('write')).join(' ')).not.toMatch(/add:o2.*add:o2/);
  });
  it('reads the capture session once and keeps it until told it changed; a failed read is tried again', async () => {
    const h = harness({ known: true });
    await h.take([rec('a', 'pending', 1)]).laid;
    await h.take([rec('b', 'pending', 2)]).laid;
    await h.take([rec('c', 'pending', 3)], true).laid;
    expect(h.sessionReads()).toBe(1);
    // Clear with preserve log: the page set another session, the service worker said so.
    h.setSession('s2');
    await h.take([rec('d', 'pending', 4)]).laid;
    expect(h.laid.at(-1)!.session).toBe('s');
    h.behind.sessionChanged();
    await h.take([rec('e', 'pending', 5)]).laid;
    expect(h.sessionReads()).toBe(2);
    expect(h.laid.at(-1)).toMatchObject({ id: 'e', session: 's2' });
    // A read that fails is not kept: the batch is refused, the next one reads again.
    h.behind.sessionChanged();
    h.setSessionFails(true);
    await h.take([rec('f', 'pending', 6)]).laid;
    expect(h.refused.at(-1)).toEqual({ ids: ['f'], session: null });
    h.setSessionFails(false);
    await h.take([rec('g', 'pending', 7)]).laid;
    expect(h.sessionReads()).toBe(4);
    expect(h.laid.at(-1)).toMatchObject({ id: 'g', session: 's2' });
    await h.behind.idle();
  });
});
