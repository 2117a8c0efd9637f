// Reading a relay backlog answer (worker/capture/backlog-read.ts): its records in growing
// batches, in order, with the drain's head (and its size); and the event loop given a turn while it reads,
// even when every byte has already arrived (the page's reads and the analysis of what was
// laid in are served meanwhile, not after the whole drain).
import { describe, expect, it } from 'vitest';
import { BACKLOG_BATCHES, readBacklog } from '../../../worker/capture/backlog-read.js';
import { jsonlLine } from '../../../worker/capture/jsonl.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';

function backlog(n: number): Uint8Array {
  let text = JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: '2026-12-04T00:00:00.000Z' }) + '\n';
  for (let i = 0; i < n; i++) {
    const r: ExchangeRecord = { v: 1, id: `r-${i}`, seq: i, source: 'relay', startedAt: 1_000 + i, state: 'complete', request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [] } };
    text += jsonlLine(r);
  }
  return new TextEncoder().encode(text);
}

// Every byte there before the first read: a stream whose reads all resolve at once.
function answer(bytes: Uint8Array, headers: Record<string, string> = { 'mrtr-drain': 'd1', 'mrtr-backlog-more': '1' }): typeof fetch {
  return (async () => new Response(new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 16 * 1024) c.enqueue(bytes.slice(i, i + 16 * 1024));
      c.close();
    },
  }), { headers })) as typeof fetch;
}

describe('reading a relay backlog', () => {
  it('hands its records on in order, in batches growing from the first, and says its drain', async () => {
    const n = BACKLOG_BATCHES.first * 10;
    const sizes: number[] = [];
    const ids: string[] = [];
    const bytes = backlog(n);
    const head = await readBacklog(answer(bytes), 'http://127.0.0.1:1/relay/api/backlog', (b) => {
      sizes.push(b.length);
      for (const r of b) ids.push(r.id);
    });
    // Its size as received, which the feed's memory bound counts.
    expect(head).toEqual({ drain: 'd1', more: true, bytes: bytes.byteLength });
    // Each batch is handed on at the first piece that fills it (a 16 KiB piece holds ~90 records).
    const want = [1, 2, 4].map((k) => BACKLOG_BATCHES.first * k);
    expect(sizes).toHaveLength(4);
    want.forEach((w, i) => {
      expect(sizes[i]).toBeGreaterThanOrEqual(w);
      expect(sizes[i]).toBeLessThan(w + 200);
    });
    expect(sizes.reduce((a, b) => a + b)).toBe(n);
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => `r-${i}`));
  });

  it('reads an answer the streaming reader declines through the careful one, from its first byte', async () => {
    // A first line that is not JSON makes the start look like no JSONL of ours (a HAR, to
    // the sniffer), so the streaming reader declines and the kept bytes are read whole.
    const text = '{"v":1,"id":\n' + new TextDecoder().decode(backlog(30)).split('\n').slice(1).join('\n');
    const ids: string[] = [];
    const head = await readBacklog(answer(new TextEncoder().encode(text)), 'http://127.0.0.1:1/relay/api/backlog', (b) => {
      for (const r of b) ids.push(r.id);
    });
    expect(head?.drain).toBe('d1');
    expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => `r-${i}`));
  });

  it('is null for an answer that is not a backlog', async () => {
    const refused = (async () => new Response('no', { status: 403 })) as typeof fetch;
    expect(await readBacklog(refused, 'http://127.0.0.1:1/relay/api/backlog', () => undefined)).toBeNull();
  });

  it('gives the event loop a turn while it reads, though every byte has arrived', async () => {
    // Each batch is slow to lay in (as the analysis worker's numbering and laying are): the
    // reading holds the worker longer than its slice, so a task queued before it runs
    // before the drain is read, not after.
    let batches = 0;
    let batchesWhenTheTaskRan = -1;
    setTimeout(() => { batchesWhenTheTaskRan = batches; }, 0);
    await readBacklog(answer(backlog(BACKLOG_BATCHES.first * 7)), 'http://127.0.0.1:1/relay/api/backlog', () => {
      const until = performance.now() + 40;
      while (performance.now() < until) { /* laying in */ }
      batches++;
    });
    expect(batches).toBe(3);
    expect(batchesWhenTheTaskRan).toBeGreaterThanOrEqual(0);
    expect(batchesWhenTheTaskRan).toBeLessThan(3);
  });
});
