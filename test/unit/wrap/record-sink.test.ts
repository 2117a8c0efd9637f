// The wrap's record sink against a chatty server: an open record the relay holds is sent as
// deltas, so what is posted grows with what the server said, not with its square (every
// progress notification once re-sent the whole open record), and the page rebuilds it whole.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordSink } from '../../../cli/wrap/record-sink.js';
import { StdioPairing } from '../../../cli/wrap/stdio-pairing.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { openPage, startRelay, TOKEN, type RelayHarness } from '../relay/relay-harness.js';

const progress = (i: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: i, message: 'm'.repeat(500) } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('RecordSink', () => {
  let h: RelayHarness | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await h?.close();
    h = undefined;
  });

  it('posts an open record once, then only its new events, and the page rebuilds the whole record', async () => {
    h = await startRelay();
    const page = await openPage(h);
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-sink-'));
    const warned: string[] = [];
    const sink = new RecordSink({ inspector: { url: h.origin, token: TOKEN }, file: join(dir, 'c.jsonl'), warn: (m) => warned.push(m) });
    let record: ExchangeRecord | undefined;
    const pairing = new StdioPairing({ name: 'chatty', client: 'c', emit: (r) => {
      record = r;
      sink.put(r);
    } });
    pairing.clientLine(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }));
    let said = 0;
    for (let i = 0; i < 300; i++) {
      const line = progress(i);
      said += line.length;
      pairing.serverLine(line);
      if (i % 10 === 9) await sleep(25);
    }
    pairing.serverLine(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }));
    await sink.flush();
    const { posts, bytesPosted: posted } = sink.counts;
    expect(warned).toEqual([]);
    expect(posts).toBeGreaterThan(5);
    // Each event crosses once, plus the request and the final copy (whole, once).
    expect(posted).toBeLessThan(2.5 * said);
    let seen: ExchangeRecord | undefined;
    while (seen?.state !== 'complete') seen = await page.next(5000);
    expect(seen.response!.events!.map((e) => e.data)).toEqual(record!.response!.events!.map((e) => e.data));
    expect(seen.response!.events).toHaveLength(301);
    page.close();
    await expect(stat(join(dir, 'c.jsonl'))).rejects.toThrow();
    await rm(dir, { recursive: true, force: true });
  }, 30_000);
});
