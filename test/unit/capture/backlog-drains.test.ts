// The relay feed reads a backlog's drains ahead of storage (worker/capture/backlog-drains.ts):
// drain after drain while the bytes laid in and not yet written stay under its bound, the
// writes held until the reading ends or the bound is reached; then the reading waits for
// storage. Acknowledgements stay in order and only follow committed writes, and a refused
// write ends the run. Storage is stood in for by a store that numbers at once and whose
// writes the test settles one at a time.
import { describe, expect, it, vi } from 'vitest';
import { jsonlLine } from '../../../worker/capture/jsonl.js';
import { RelayFeed, type EventStream } from '../../../worker/capture/relay-feed.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { fakeCaptureStore, heldWrites } from '../../support/fake-capture-store.js';

const WAIT = { timeout: 20_000 };
const PER_DRAIN = 300;

const rec = (i: number): ExchangeRecord => ({ v: 1, id: `r-${i}`, seq: i, source: 'relay', startedAt: 1_000 + i, state: 'complete', request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [] } });
function drainText(d: number): string {
  let t = JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: '2026-12-07T00:00:00.000Z' }) + '\n';
  for (let i = d * PER_DRAIN; i < (d + 1) * PER_DRAIN; i++) t += jsonlLine(rec(i));
  return t;
}
const DRAIN_BYTES = new TextEncoder().encode(drainText(0)).byteLength;
const idsOf = (d: number) => Array.from({ length: PER_DRAIN }, (_, i) => `r-${d * PER_DRAIN + i}`);

/** A relay of `drains` drains (d1…dn) and a store whose writes wait for the test. */
function harness(drains: number, readAheadBytes: number) {
  const asked: { after: string; committed: Set<string>; writesStarted: number }[] = [];
  const committed = new Set<string>();
  const acks: { drain: string; ids: string[]; allCommitted: boolean }[] = [];
  const { writes, write } = heldWrites(committed);
  const store = fakeCaptureStore(write);
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(url));
    if (u.pathname === '/relay/api/backlog') {
      const after = u.searchParams.get('after') ?? '';
      asked.push({ after, committed: new Set(committed), writesStarted: writes.length });
      const d = after === '' ? 0 : Number(after.slice(1));
      return new Response(drainText(d), { headers: { 'mrtr-drain': `d${d + 1}`, 'mrtr-backlog-more': d + 1 < drains ? '1' : '0' } });
    }
    if (u.pathname === '/relay/api/backlog/ack') {
      const body = JSON.parse(String(init!.body)) as { drain: string; ids: string[] };
      acks.push({ ...body, allCommitted: body.ids.every((id) => committed.has(id)) });
      return new Response('{}');
    }
    return new Response('', { status: 404 });
  }) as typeof globalThis.fetch;
  const events: EventStream = { onopen: null, onmessage: null, onerror: null, close() {} };
  const feed = new RelayFeed({
    store, fetch, base: 'http://127.0.0.1:1/', openEvents: () => events, readAheadBytes,
    laid: () => undefined, stored: () => undefined, collided: () => undefined, announce: () => undefined,
  });
  feed.start();
  events.onopen!(new Event('open'));
  /** Settles every write as it comes (`ok` decides each) until the feed is idle. */
  async function settleAll(ok: (w: { ids: string[] }) => boolean = () => true): Promise<void> {
    let done = false;
    const finished = feed.idle().then(() => { done = true; });
    while (!done) {
      const w = writes.find((x) => !x.settled);
      if (w) w.settle(ok(w));
      await new Promise((r) => setTimeout(r, 1));
    }
    await finished;
  }
  return { feed, asked, writes, acks, committed, settleAll };
}

describe('relay backlog read ahead of storage', () => {
  it('reads every drain under its bound before writing any, then acknowledges each in order once stored', async () => {
    const h = harness(4, DRAIN_BYTES * 10);
    await vi.waitFor(() => expect(h.asked.map((a) => a.after)).toEqual(['', 'd1', 'd2', 'd3']), WAIT);
    // No drain waited for storage: nothing was written when any of them was asked for.
    expect(h.asked.every((a) => a.writesStarted === 0)).toBe(true);
    await vi.waitFor(() => expect(h.writes.length).toBeGreaterThan(0), WAIT);
    expect(h.acks).toEqual([]);
    await h.settleAll();
    expect(h.acks.map((a) => a.drain)).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(h.acks.every((a) => a.allCommitted)).toBe(true);
    h.acks.forEach((a, d) => expect(a.ids).toEqual(idsOf(d)));
    h.feed.stop();
  });

  it('stops reading once its bound is held unwritten, and reads on once the oldest drain is stored', async () => {
    // Two drains fill the bound: the third is asked for only after the first is written.
    const h = harness(4, Math.floor(DRAIN_BYTES * 1.5));
    await vi.waitFor(() => expect(h.asked).toHaveLength(2), WAIT);
    // Held back while reading, the writes start once the bound is reached.
    expect(h.asked[1]!.writesStarted).toBe(0);
    await vi.waitFor(() => expect(h.writes.length).toBeGreaterThan(0), WAIT);
    await new Promise((r) => setTimeout(r, 20));
    expect(h.asked).toHaveLength(2);
    await h.settleAll();
    expect(h.asked.map((a) => a.after)).toEqual(['', 'd1', 'd2', 'd3']);
    for (const a of h.asked.slice(2)) {
      const d = Number(a.after.slice(1)) - 2; // the drain two before the one asked for
      expect(idsOf(d).every((id) => a.committed.has(id)), `asked after ${a.after} with drain d${d + 1} stored`).toBe(true);
    }
    expect(h.acks.map((a) => a.drain)).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(h.acks.every((a) => a.allCommitted)).toBe(true);
    h.feed.stop();
  });

  it('reads no further drain once storage refused one, and acknowledges none from the refused one on', async () => {
    const h = harness(6, Math.floor(DRAIN_BYTES * 1.5));
    await vi.waitFor(() => expect(h.asked).toHaveLength(2), WAIT);
    // The first drain's first write is refused (quota); the rest commit.
    let first = true;
    await h.settleAll(() => { const ok = !first; first = false; return ok; });
    expect(h.asked.map((a) => a.after)).toEqual(['', 'd1']);
    expect(h.acks).toEqual([]);
    expect(h.committed.has('r-0')).toBe(false);
    // What the run read is still stored, bar the refused write.
    expect(idsOf(1).every((id) => h.committed.has(id))).toBe(true);
    h.feed.stop();
  });
});
