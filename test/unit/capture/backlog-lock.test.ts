// One tab drains the relay's backlog at a time (worker/capture/backlog-lock.ts): two tabs'
// relay feeds over one relay and one IndexedDB (the real CaptureStore on an in-memory
// IndexedDB, a store per tab as each tab's worker opens its own): the second tab's run waits
// for the first's, finds what it stored acknowledged, and numbers and writes none of it;
// a tab whose storage refused leaves the backlog to the next; a holder that stopped moving
// holds the others up only until the stall bound.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BACKLOG_LOCK, BacklogLock, type DrainLocks } from '../../../worker/capture/backlog-lock.js';
import { jsonlLine } from '../../../worker/capture/jsonl.js';
import type { CaptureNotice } from '../../../worker/capture/notices.js';
import { RelayFeed, type EventStream } from '../../../worker/capture/relay-feed.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { CaptureStore, type StoredExchange } from '../../../worker/storage/index.js';

const WAIT = { timeout: 20_000 };

/** Web Locks for the backlog lock: granted in the order asked, the next once the holder's callback settled; a wait can be aborted. */
function fakeLocks() {
  const queue: { run: () => void; abort: (reason: unknown) => void }[] = [];
  let held = false;
  const grant = () => {
    if (held) return;
    const next = queue.shift();
    if (!next) return;
    held = true;
    next.run();
  };
  const locks: DrainLocks = {
    request(name, { signal }, callback) {
      expect(name).toBe(BACKLOG_LOCK);
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const entry = {
          run: () => void Promise.resolve().then(callback).then(resolve, reject).finally(() => { held = false; grant(); }),
          abort: (reason: unknown) => reject(reason),
        };
        signal?.addEventListener('abort', () => {
          const at = queue.indexOf(entry);
          if (at >= 0) {
            queue.splice(at, 1);
            entry.abort(signal.reason);
          }
        });
        queue.push(entry);
        grant();
      });
    },
    async query() {
      return { pending: queue.map(() => ({ name: BACKLOG_LOCK })) };
    },
  };
  return locks;
}

const rec = (i: number): ExchangeRecord => ({ v: 1, id: `r-${i}`, seq: i, source: 'relay', startedAt: 1_000 + i, state: 'complete', request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [] } });

/** The relay's backlog as server/relay/backlog.ts hands it out: the whole file per drain (two pages asking at once get the same lines), lines removed on acknowledgement. */
function relayStub(count: number) {
  const file = new Map<string, ExchangeRecord>(Array.from({ length: count }, (_, i) => [`r-${i}`, rec(i)]));
  const log: string[] = [];
  let drains = 0;
  const fetchFor = (tab: string) => (async (url: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(url));
    if (u.pathname === '/relay/api/backlog') {
      const drain = `d${++drains}`;
      log.push(`${tab} drains ${file.size}`);
      let text = JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: '2026-12-07T00:00:00.000Z' }) + '\n';
      for (const r of file.values()) text += jsonlLine(r);
      return new Response(text, { headers: { 'mrtr-drain': drain, 'mrtr-backlog-more': '0' } });
    }
    if (u.pathname === '/relay/api/backlog/ack') {
      const { ids } = JSON.parse(String(init!.body)) as { ids: string[] };
      for (const id of ids) file.delete(id);
      log.push(`${tab} acknowledges ${ids.length}`);
      return new Response('{}');
    }
    return new Response('', { status: 404 });
  }) as typeof fetch;
  return { file, log, fetchFor };
}

let dbs = 0;
const stores: CaptureStore[] = [];
afterEach(() => { for (const s of stores.splice(0)) s.close(); });

/** Two tabs' feeds over one relay and one database; a notice one posts is heard by the other. */
async function twoTabs(count: number, opts: { locks?: DrainLocks; refuseA?: boolean }) {
  const relay = relayStub(count);
  const name = `backlog-lock-${++dbs}`;
  const tabs: { feed: RelayFeed; heard: CaptureNotice[] }[] = [];
  const tab = (label: string, refuse: boolean) => {
    const store = new CaptureStore(name);
    stores.push(store);
    if (refuse) store.writeReserved = async () => { throw new DOMException('The quota has been exceeded (test).', 'QuotaExceededError'); };
    const events: EventStream = { onopen: null, onmessage: null, onerror: null, close() {} };
    const laid: StoredExchange[] = [];
    const collided: string[] = [];
    const heard: CaptureNotice[] = [];
    const lock = new BacklogLock(opts.locks);
    const progressed = vi.spyOn(lock, 'progressed');
    const feed: RelayFeed = new RelayFeed({
      store, fetch: relay.fetchFor(label), base: 'http://127.0.0.1:1/', openEvents: () => events,
      drainLock: lock,
      laid: (records) => void laid.push(...records), stored: () => undefined,
      collided: (_session, ids) => void collided.push(...ids),
      announce: (n) => { for (const t of tabs) if (t.feed !== feed) { t.heard.push(n); t.feed.heard(n); } },
    });
    const t = { feed, events, laid, collided, heard, store, progressed };
    tabs.push(t);
    feed.start();
    return t;
  };
  const a = tab('a', opts.refuseA ?? false);
  const b = tab('b', false);
  // One capture session, made before either tab asks for it.
  const session = (await a.store.currentSession()).id;
  const storedIds = async () => {
    const all: StoredExchange[] = [];
    for await (const page of a.store.allExchanges(session)) all.push(...page);
    return all;
  };
  return { relay, a, b, storedIds };
}

describe('two tabs draining one relay backlog', () => {
  it('opened at once: the second tab waits for the first tab\'s run, then numbers, writes and collides nothing of what the first stored', async () => {
    const { relay, a, b, storedIds } = await twoTabs(500, { locks: fakeLocks() });
    a.events.onopen!(new Event('open'));
    b.events.onopen!(new Event('open'));
    // Reopened while it waits: the run still to come covers this `open` too.
    b.events.onopen!(new Event('open'));
    await a.feed.idle();
    await b.feed.idle();
    expect(relay.log).toEqual(['a drains 500', 'a acknowledges 500', 'b drains 0']);
    // While it waited, the second tab heard the first move as each batch was read (an empty
    // notice: the copies are held back while the first reads), was sent the numbered copies
    // when the first's writes began (it lists them then, at the numbers they are stored
    // with), then heard the writes; each restarted its wait.
    const types = b.heard.map((n) => n.type);
    expect(b.heard.flatMap((n) => (n.type === 'backlog-laid' ? [n.records.length] : []))).toEqual([0, 500]);
    expect(types.indexOf('exchanges-stored')).toBeGreaterThan(types.lastIndexOf('backlog-laid'));
    const shared = b.heard.flatMap((n) => (n.type === 'backlog-laid' ? n.records : []));
    expect(shared.map((r) => `${r.id}@${r.seq}`)).toEqual(a.laid.map((r) => `${r.id}@${r.seq}`));
    expect(b.progressed).toHaveBeenCalledTimes(types.filter((t) => t === 'backlog-laid' || t === 'exchanges-stored').length);
    // With no tab waiting for it, the second tab's run sent nothing of the kind.
    expect(a.heard.filter((n) => n.type === 'backlog-laid')).toEqual([]);
    expect(a.laid).toHaveLength(500);
    expect(b.laid).toEqual([]);
    expect([...a.collided, ...b.collided]).toEqual([]);
    const stored = await storedIds();
    expect(stored).toHaveLength(500);
    expect(new Set(stored.map((r) => r.seq)).size).toBe(500);
    expect(relay.file.size).toBe(0);
    a.feed.stop();
    b.feed.stop();
  });

  it('without Web Locks both tabs drain at once, as before: the second write of each id collides and is merged', async () => {
    const { relay, a, b, storedIds } = await twoTabs(500, {});
    a.events.onopen!(new Event('open'));
    b.events.onopen!(new Event('open'));
    await a.feed.idle();
    await b.feed.idle();
    expect(relay.log.slice(0, 2)).toEqual(['a drains 500', 'b drains 500']);
    expect(a.laid).toHaveLength(500);
    expect(b.laid).toHaveLength(500);
    expect([...a.collided, ...b.collided].length).toBeGreaterThan(0);
    // Still correct: each exchange stored once, at one place.
    const stored = await storedIds();
    expect(stored).toHaveLength(500);
    expect(new Set(stored.map((r) => r.seq)).size).toBe(500);
    a.feed.stop();
    b.feed.stop();
  });

  it('the first tab\'s storage refuses the backlog: its run ends unacknowledged, and the waiting tab drains, stores and acknowledges all of it', async () => {
    const { relay, a, b, storedIds } = await twoTabs(300, { locks: fakeLocks(), refuseA: true });
    a.events.onopen!(new Event('open'));
    b.events.onopen!(new Event('open'));
    await a.feed.idle();
    await b.feed.idle();
    expect(relay.log).toEqual(['a drains 300', 'b drains 300', 'b acknowledges 300']);
    expect(b.laid).toHaveLength(300);
    expect([...a.collided, ...b.collided]).toEqual([]);
    expect(await storedIds()).toHaveLength(300);
    expect(relay.file.size).toBe(0);
    a.feed.stop();
    b.feed.stop();
  });
});

describe('the backlog lock', () => {
  afterEach(() => vi.useRealTimers());

  it('runs one run at a time, in the order asked; without Web Locks each run starts at once', async () => {
    const lock = new BacklogLock(fakeLocks());
    const order: string[] = [];
    let endFirst!: () => void;
    const first = lock.hold(async () => { order.push('first starts'); await new Promise<void>((r) => (endFirst = r)); order.push('first ends'); return 1; });
    const second = lock.hold(async () => { order.push('second starts'); return 2; });
    await vi.waitFor(() => expect(order).toEqual(['first starts']), WAIT);
    endFirst();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(order).toEqual(['first starts', 'first ends', 'second starts']);

    const free = new BacklogLock(undefined);
    const started: number[] = [];
    const never = free.hold(() => { started.push(1); return new Promise<void>(() => undefined); });
    await free.hold(async () => void started.push(2));
    expect(started).toEqual([1, 2]);
    void never;
  });

  it('a holder that stopped moving holds a waiting run only until no stored write was heard for the stall bound', async () => {
    vi.useFakeTimers();
    const lock = new BacklogLock(fakeLocks(), 1_000);
    void lock.hold(() => new Promise<never>(() => undefined)); // hung: never ends, posts nothing
    let ran = false;
    const waiting = lock.hold(async () => { ran = true; return 'drained'; });
    // The holder is heard storing for a while: each write restarts the bound.
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(800);
      lock.progressed();
    }
    expect(ran).toBe(false);
    // Then silence: the wait ends at the bound, and the run goes ahead without the lock.
    await vi.advanceTimersByTimeAsync(999);
    expect(ran).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waiting).toBe('drained');
  });

  it('a failing run passes its error on and lets the lock go', async () => {
    const lock = new BacklogLock(fakeLocks());
    await expect(lock.hold(async () => { throw new Error('relay gone'); })).rejects.toThrow('relay gone');
    expect(await lock.hold(async () => 'next')).toBe('next');
  });

  it('a stopped feed waits no more: its run is called at once', async () => {
    const lock = new BacklogLock(fakeLocks());
    void lock.hold(() => new Promise<never>(() => undefined));
    const waiting = lock.hold(async () => 'called');
    lock.stop();
    expect(await waiting).toBe('called');
  });
});
