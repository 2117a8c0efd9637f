// One tab writes the relay's pushes (capture/push-writer.ts): with two tabs open, each push is
// numbered and written once, by the worker holding the writer lock; the other keeps what it
// hears until the writer's notice says it is stored, and takes what is left when the lock
// comes to it (the writer's tab closed) or when no notice came in time, so nothing goes
// unwritten.
import { describe, expect, it } from 'vitest';
import { PushWriter, PUSH_WRITER_LOCK, type WriterLocks } from '../../../worker/capture/push-writer.js';
import { RelayFeed, type EventStream } from '../../../worker/capture/relay-feed.js';
import { recordPush } from '../../../worker/capture/relay-push.js';
import type { CaptureNotice } from '../../../worker/capture/notices.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { fakeCaptureStore } from '../../support/fake-capture-store.js';

const call = (id: string, state: ExchangeRecord['state']): ExchangeRecord => ({
  v: 1, id, seq: 0, source: 'relay', startedAt: 1_000, state, request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [] },
});

/** Web Locks for one lock name: granted in the order asked, the next when the holder is let go. */
function fakeLocks() {
  const queue: (() => Promise<unknown>)[] = [];
  let held = false;
  const grant = () => {
    const next = queue.shift();
    if (!next) return;
    held = true;
    void next();
  };
  const locks: WriterLocks = {
    async request(name, callback) {
      expect(name).toBe(PUSH_WRITER_LOCK);
      queue.push(callback);
      if (!held) grant();
    },
  };
  // The holder's worker ended: the lock goes to the next in line.
  const release = () => {
    held = false;
    grant();
  };
  return { locks, release };
}

/** A tab's feed: its event stream, what it laid in and what it announced. */
function tab(writer: PushWriter, channel: { post: (from: RelayFeed, n: CaptureNotice) => void }, followWaitMs?: number) {
  const events: EventStream = { onopen: null, onmessage: null, onerror: null, close() {} };
  const laid: StoredExchange[] = [];
  const feed: RelayFeed = new RelayFeed({
    store: fakeCaptureStore(async () => []), fetch: (async () => new Response('', { status: 404 })) as typeof fetch,
    base: 'http://127.0.0.1:1/', openEvents: () => events, writer, followWaitMs,
    laid: (records) => void laid.push(...records), stored: () => undefined, collided: () => { throw new Error('collided'); },
    announce: (n) => channel.post(feed, n),
  });
  feed.start();
  const push = (r: ExchangeRecord) => events.onmessage!({ data: JSON.stringify(recordPush(r)) } as MessageEvent<string>);
  return { feed, laid, push };
}

describe('the writer of relay pushes', () => {
  it('is the holder of the lock; without Web Locks every feed writes', async () => {
    const { locks, release } = fakeLocks();
    const first = new PushWriter(locks);
    const second = new PushWriter(locks);
    await Promise.resolve();
    expect([first.leading, second.leading]).toEqual([true, false]);
    let led = 0;
    second.onLead(() => led++);
    release();
    expect([second.leading, led]).toEqual([true, 1]);
    expect(new PushWriter(undefined).leading).toBe(true);
  });

  it('two tabs: each push laid in and written by the writer only; the other takes over what no notice covered', async () => {
    const { locks, release } = fakeLocks();
    const feeds: RelayFeed[] = [];
    // The capture channel: a notice goes to every other tab's feed.
    const channel = { post: (from: RelayFeed, n: CaptureNotice) => { for (const f of feeds) if (f !== from) f.heard(n); } };
    const a = tab(new PushWriter(locks), channel);
    const b = tab(new PushWriter(locks), channel);
    feeds.push(a.feed, b.feed);
    await Promise.resolve();
    for (const t of [a, b]) t.push(call('x', 'pending'));
    for (const t of [a, b]) t.push(call('x', 'complete'));
    await a.feed.idle();
    await b.feed.idle();
    expect(a.laid.map((r) => r.id)).toContain('x');
    expect(b.laid).toEqual([]);
    // The writer goes (its tab closed) after b heard a push the writer never wrote.
    a.feed.stop();
    b.push(call('y', 'complete'));
    expect(b.laid).toEqual([]);
    release();
    await b.feed.idle();
    // x was announced as stored: not taken again; y was not: taken now.
    expect(b.laid.map((r) => r.id)).toEqual(['y']);
    b.push(call('z', 'pending'));
    await b.feed.idle();
    expect(b.laid.map((r) => r.id)).toEqual(['y', 'z']);
    b.feed.stop();
  });

  it('a follower writes a push itself when the writer\'s notice does not come in time (the writer never got it)', async () => {
    const { locks } = fakeLocks();
    const feeds: RelayFeed[] = [];
    const channel = { post: (from: RelayFeed, n: CaptureNotice) => { for (const f of feeds) if (f !== from) f.heard(n); } };
    const a = tab(new PushWriter(locks), channel);
    const b = tab(new PushWriter(locks), channel, 40);
    feeds.push(a.feed, b.feed);
    await Promise.resolve();
    // Both hear x (the writer writes it, its notice comes); only b hears y (the relay dropped a's stream).
    for (const t of [a, b]) t.push(call('x', 'complete'));
    b.push(call('y', 'complete'));
    await a.feed.idle();
    await new Promise((r) => setTimeout(r, 150));
    await b.feed.idle();
    expect(a.laid.map((r) => r.id)).toEqual(['x']);
    expect(b.laid.map((r) => r.id)).toEqual(['y']);
    a.feed.stop();
    b.feed.stop();
  });
});
