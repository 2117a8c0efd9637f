// The relay backlog drain (worker/capture/relay-feed.ts) lays every batch of the backlog into
// the session as it is read, before writing any (capture/write-behind.ts), writes once the
// drain is read, and acknowledges only once every write committed. Storage is stood in for
// by a store that numbers at once and whose writes the test lets commit one at a time.
import { describe, expect, it, vi } from 'vitest';
import { jsonlLine } from '../../../worker/capture/jsonl.js';
import { RelayFeed, type EventStream } from '../../../worker/capture/relay-feed.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import type { CaptureNotice } from '../../../worker/capture/notices.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { fakeCaptureStore, heldWrites } from '../../support/fake-capture-store.js';

const RECORDS = 3000; // a first batch of 1,000 and one of 2,000 (capture/backlog-read.ts)
const PIECE = 16 * 1024;
// Waits are on conditions: the bound only ends a test that went wrong (vi.waitFor's default,
// 1 s, is a clock a loaded CI machine can miss).
const WAIT = { timeout: 20_000 };

function backlogText(): string {
  let text = JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: '2026-12-02T00:00:00.000Z' }) + '\n';
  for (let i = 0; i < RECORDS; i++) {
    const r: ExchangeRecord = { v: 1, id: `r-${i}`, seq: i, source: 'relay', startedAt: 1_000 + i, state: 'complete', request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [] } };
    text += jsonlLine(r);
  }
  return text;
}

function harness() {
  const bytes = new TextEncoder().encode(backlogText());
  let offset = 0;
  const body = { finished: false };
  // Handed out a piece per pull, so how far the feed has read is known.
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (offset >= bytes.length) {
        body.finished = true;
        c.close();
        return;
      }
      c.enqueue(bytes.slice(offset, offset + PIECE));
      offset += PIECE;
    },
  }, { highWaterMark: 0 });
  const writes: { size: number; commit: () => void; committed: boolean; afterRead: boolean }[] = [];
  const acks: { ids: string[]; committedBefore: number }[] = [];
  const laid: StoredExchange[] = [];
  const announced: CaptureNotice[] = [];
  const store = fakeCaptureStore((items) => {
    return new Promise((resolve) => {
      const w = { size: items.length, committed: false, afterRead: body.finished, commit: () => { w.committed = true; resolve([]); } };
      writes.push(w);
    });
  });
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname;
    if (path === '/relay/api/backlog') return new Response(stream, { headers: { 'mrtr-drain': 'd1', 'mrtr-backlog-more': '0' } });
    if (path === '/relay/api/backlog/ack') {
      acks.push({ ids: JSON.parse(String(init!.body)).ids, committedBefore: writes.filter((w) => w.committed).length });
      return new Response('{}');
    }
    return new Response('', { status: 404 });
  }) as typeof globalThis.fetch;
  const events: EventStream = { onopen: null, onmessage: null, onerror: null, close() {} };
  const feed = new RelayFeed({
    store, fetch, base: 'http://127.0.0.1:1/', openEvents: () => events,
    laid: (records) => void laid.push(...records), stored: () => undefined, collided: () => undefined, announce: (n) => void announced.push(n),
  });
  return { feed, events, body, writes, acks, laid, announced };
}

describe('relay backlog drain', () => {
  it('lays the whole backlog in before writing any of it, and acknowledges once every write committed', async () => {
    const { feed, events, body, writes, acks, laid, announced } = harness();
    feed.start();
    events.onopen!(new Event('open'));
    await vi.waitFor(() => expect(body.finished).toBe(true), WAIT);
    await vi.waitFor(() => expect(laid).toHaveLength(RECORDS), WAIT);
    // Numbered in the order read, once each.
    expect(laid.map((r) => r.seq)).toEqual([...Array(RECORDS).keys()]);
    await vi.waitFor(() => expect(writes.length).toBeGreaterThan(0), WAIT);
    // Nothing was written before the drain was read: the first write starts after.
    expect(writes[0]!.afterRead).toBe(true);
    expect(acks).toEqual([]);
    // Writes go one transaction at a time; commit each as it comes.
    let written = 0;
    while (written < RECORDS) {
      await vi.waitFor(() => expect(writes.length).toBeGreaterThan(writes.filter((w) => w.committed).length), WAIT);
      const w = writes.find((x) => !x.committed)!;
      expect(acks).toEqual([]);
      w.commit();
      written += w.size;
    }
    await feed.idle();
    expect(acks).toHaveLength(1);
    expect(acks[0]!.committedBefore).toBe(writes.length);
    expect(new Set(acks[0]!.ids).size).toBe(RECORDS);
    // The other tabs are told once per committed write, not once per record.
    expect(announced).toHaveLength(writes.length);
    expect(announced.flatMap((n) => (n.type === 'exchanges-stored' ? n.ids : [])).sort()).toEqual(laid.map((r) => r.id).sort());
    feed.stop();
  });
});

describe('overlapping relay backlog drains', () => {
  const rec = (i: number): ExchangeRecord => ({ v: 1, id: `r-${i}`, seq: i, source: 'relay', startedAt: 1_000 + i, state: 'complete', request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [] } });
  function text(from: number, count: number): string {
    let t = JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: '2026-12-02T00:00:00.000Z' }) + '\n';
    for (let i = from; i < from + count; i++) t += jsonlLine(rec(i));
    return t;
  }

  it('reads the next drain while the one before is stored, and acknowledges each once its own writes committed', async () => {
    const asked: string[] = [];
    const committed = new Set<string>();
    const writes: { ids: string[]; commit: () => void; committed: boolean }[] = [];
    const acks: { drain: string; ids: string[]; allCommitted: boolean; asked: number }[] = [];
    const store = fakeCaptureStore((items) => {
      return new Promise((resolve) => {
        const w = { ids: items.map((i) => i.copy.id), committed: false, commit: () => { w.committed = true; for (const id of w.ids) committed.add(id); resolve([]); } };
        writes.push(w);
      });
    });
    const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
      const u = new URL(String(url));
      if (u.pathname === '/relay/api/backlog') {
        const after = u.searchParams.get('after');
        asked.push(after ?? '');
        if (after === null) return new Response(text(0, 300), { headers: { 'mrtr-drain': 'd1', 'mrtr-backlog-more': '1' } });
        return new Response(text(300, 300), { headers: { 'mrtr-drain': 'd2', 'mrtr-backlog-more': '0' } });
      }
      if (u.pathname === '/relay/api/backlog/ack') {
        const body = JSON.parse(String(init!.body)) as { drain: string; ids: string[] };
        acks.push({ ...body, allCommitted: body.ids.every((id) => committed.has(id)), asked: asked.length });
        return new Response('{}');
      }
      return new Response('', { status: 404 });
    }) as typeof globalThis.fetch;
    const events: EventStream = { onopen: null, onmessage: null, onerror: null, close() {} };
    const feed = new RelayFeed({
      store, fetch, base: 'http://127.0.0.1:1/', openEvents: () => events,
      laid: () => undefined, stored: () => undefined, collided: () => undefined, announce: () => undefined,
    });
    feed.start();
    events.onopen!(new Event('open'));
    // The second drain is asked for while nothing of the first is stored yet.
    await vi.waitFor(() => expect(asked).toEqual(['', 'd1']), WAIT);
    expect(writes.every((w) => !w.committed)).toBe(true);
    expect(acks).toEqual([]);
    let done = false;
    const finished = feed.idle().then(() => { done = true; });
    while (!done) {
      const w = writes.find((x) => !x.committed);
      if (w) w.commit();
      await new Promise((r) => setTimeout(r, 1));
    }
    await finished;
    expect(acks.map((a) => a.drain)).toEqual(['d1', 'd2']);
    expect(acks.every((a) => a.allCommitted)).toBe(true);
    expect(acks[0]!.ids).toEqual(Array.from({ length: 300 }, (_, i) => `r-${i}`));
    expect(acks[1]!.ids).toEqual(Array.from({ length: 300 }, (_, i) => `r-${300 + i}`));
    feed.stop();
  });
  // The relay drops every line of an acknowledged id up to the copy it handed out, so an id
  // the second drain holds again (an equal copy, not written twice) must not be acknowledged
  // while the first drain's write of it can still fail.
  it('acknowledges no drain whose records are not all stored, also an id the drain before held and failed to store', async () => {
    const committed = new Set<string>();
    const asked: string[] = [];
    const acks: { drain: string; ids: string[] }[] = [];
    const { writes, write } = heldWrites(committed);
    const store = fakeCaptureStore(write);
    const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
      const u = new URL(String(url));
      if (u.pathname === '/relay/api/backlog') {
        const after = u.searchParams.get('after');
        asked.push(after ?? '');
        if (after === null) return new Response(text(0, 300), { headers: { 'mrtr-drain': 'd1', 'mrtr-backlog-more': '1' } });
        // The second drain holds r-0 again, the same copy (no newer).
        return new Response(text(300, 300) + jsonlLine(rec(0)), { headers: { 'mrtr-drain': 'd2', 'mrtr-backlog-more': '0' } });
      }
      if (u.pathname === '/relay/api/backlog/ack') {
        const body = JSON.parse(String(init!.body)) as { drain: string; ids: string[] };
        acks.push(body);
        return new Response('{}');
      }
      return new Response('', { status: 404 });
    }) as typeof globalThis.fetch;
    const events: EventStream = { onopen: null, onmessage: null, onerror: null, close() {} };
    const refused: string[] = [];
    const feed = new RelayFeed({
      store, fetch, base: 'http://127.0.0.1:1/', openEvents: () => events,
      laid: () => undefined, stored: () => undefined, collided: () => undefined,
      announce: (n) => { if (n.type === 'exchange-unsaved') refused.push(n.id); },
    });
    feed.start();
    events.onopen!(new Event('open'));
    await vi.waitFor(() => expect(asked).toEqual(['', 'd1']), WAIT);
    let done = false;
    const finished = feed.idle().then(() => { done = true; });
    while (!done) {
      // Storage refuses the write holding r-0 (the first drain's copy); the rest commit.
      const w = writes.find((x) => !x.settled);
      if (w) w.settle(!w.ids.includes('r-0'));
      await new Promise((r) => setTimeout(r, 1));
    }
    await finished;
    expect(refused).toContain('r-0');
    expect(committed.has('r-0')).toBe(false);
    // Every id the relay was told is stored, is: r-0 stays in its file for the next drain.
    for (const a of acks) for (const id of a.ids) expect(committed.has(id), `${a.drain} acknowledged ${id}`).toBe(true);
    expect(acks.flatMap((a) => a.ids)).not.toContain('r-0');
    feed.stop();
  });
});
