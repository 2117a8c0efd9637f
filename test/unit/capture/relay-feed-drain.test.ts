// The relay backlog drain (worker/capture/relay-feed.ts) writes one batch while it reads the
// next, like a page import, and still acknowledges only what committed. Storage is stood in
// for by a store whose writes the test lets commit one at a time.
import { describe, expect, it, vi } from 'vitest';
import { jsonlLine } from '../../../worker/capture/jsonl.js';
import { RelayFeed, type EventStream } from '../../../worker/capture/relay-feed.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import type { CaptureStore, StoredExchange } from '../../../worker/storage/index.js';

const RECORDS = 3000; // a first batch of 2,000 and the rest
const PIECE = 16 * 1024;

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
  const writes: { size: number; commit: () => void; committed: boolean }[] = [];
  const acks: { ids: string[]; committedBefore: number }[] = [];
  const store = {
    async currentSession() { return { id: 's', name: 'Session 1', createdAt: 0, nextSeq: 0 }; },
    mergeExchanges(session: string, batch: readonly ExchangeRecord[]): Promise<StoredExchange[]> {
      return new Promise((resolve) => {
        const w = { size: batch.length, committed: false, commit: () => { w.committed = true; resolve(batch.map((r) => ({ ...r, session }))); } };
        writes.push(w);
      });
    },
  } as unknown as CaptureStore;
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
  const feed = new RelayFeed({ store, fetch, base: 'http://127.0.0.1:1/', openEvents: () => events, written: () => undefined, announce: () => undefined });
  return { feed, events, body, writes, acks };
}

describe('relay backlog drain', () => {
  it('reads the next batch of the backlog while the batch before it is being written, and acknowledges once both committed', async () => {
    const { feed, events, body, writes, acks } = harness();
    feed.start();
    events.onopen!(new Event('open'));
    await vi.waitFor(() => expect(writes.length).toBe(1));
    expect(writes[0]!.size).toBeGreaterThanOrEqual(2000);
    // The first write has not committed, yet the rest of the backlog is read meanwhile.
    await vi.waitFor(() => expect(body.finished).toBe(true));
    expect(acks).toEqual([]);
    writes[0]!.commit();
    await vi.waitFor(() => expect(writes.length).toBe(2));
    expect(writes[0]!.size + writes[1]!.size).toBe(RECORDS);
    expect(acks).toEqual([]);
    writes[1]!.commit();
    await feed.idle();
    expect(acks).toHaveLength(1);
    expect(acks[0]!.committedBefore).toBe(2);
    expect(new Set(acks[0]!.ids).size).toBe(RECORDS);
    feed.stop();
  });
});
