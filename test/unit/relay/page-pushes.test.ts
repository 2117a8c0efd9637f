// A page is pushed only what is new: over a long event stream the bytes pushed to a page
// grow with the stream, not with its square (whole-record pushes send the record so far at
// every push), and the record the page rebuilds from the pushes equals the relay's own.
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, openEvents, openPage, parseJsonl, putTargets, startRelay, startUpstream, TOKEN, type PageReader, type RelayHarness } from './relay-harness.js';

const BATCHES = 20;
const PER_BATCH = 25;
const event = (n: number) => `data: {"n":${n},"pad":"${'p'.repeat(400)}"}\n\n`;
const STREAM_BYTES = Array.from({ length: BATCHES * PER_BATCH }, (_, n) => Buffer.byteLength(event(n))).reduce((a, b) => a + b, 0);

describe('pushes to a page', () => {
  const started: { close(): Promise<void> | void }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
  });

  // A target that sends its stream in batches, each when the test says so (`next()`), so the
  // relay pushes at least once per batch whatever its coalescing interval.
  async function setup(): Promise<{ h: RelayHarness; next: () => void }> {
    let stream: ServerResponse | undefined;
    let batch = 0;
    const h = await startRelay();
    const upstream = await startUpstream((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      stream = res;
    });
    started.push(h, upstream);
    expect((await putTargets(h, [{ id: 't', url: upstream.url }])).status).toBe(200);
    const next = () => {
      let out = '';
      for (let i = 0; i < PER_BATCH; i++) out += event(batch * PER_BATCH + i);
      batch++;
      stream!.write(out);
      if (batch === BATCHES) stream!.end();
    };
    return { h, next };
  }

  // Reads the page's pushes until its record of the one exchange holds `events` events (and is complete, when asked).
  async function readUntil(page: PageReader, events: number, complete = false) {
    for (;;) {
      const rec = await page.next(10_000);
      if ((rec.response?.events?.length ?? 0) >= events && (!complete || rec.state === 'complete')) return rec;
    }
  }

  it('grow with the stream, not with its square, and rebuild every event', async () => {
    const { h, next } = await setup();
    const page = await openPage(h);
    started.push(page);
    const client = await openEvents(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, body: '{}' });
    started.push(client);
    let rec;
    for (let b = 1; b <= BATCHES; b++) {
      next();
      rec = await readUntil(page, b * PER_BATCH, b === BATCHES);
    }
    expect(rec!.response!.events!.map((e) => JSON.parse(e.data).n)).toEqual(Array.from({ length: BATCHES * PER_BATCH }, (_, n) => n));
    // Whole-record pushes (one per batch at least) would send about BATCHES/2 times the stream.
    expect(page.bytes()).toBeLessThan(2 * STREAM_BYTES);
  });

  it('give a page that joins mid-exchange the record so far once, then deltas, ending equal to the filed record', async () => {
    const { h, next } = await setup();
    const client = await openEvents(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, body: '{}' });
    started.push(client);
    // With no page, the request and head are filed; the id keeps being filed after a page joins.
    await eventually(async () => (await readFile(h.jsonl, 'utf8').catch(() => '')).includes('"streaming"'));
    next();
    for (let i = 0; i < PER_BATCH; i++) await client.next(10_000);
    const page = await openPage(h);
    started.push(page);
    let rec;
    for (let b = 2; b <= BATCHES; b++) {
      next();
      rec = await readUntil(page, b * PER_BATCH, b === BATCHES);
    }
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8')).records[0]?.state === 'complete');
    const [filed] = parseJsonl(await readFile(h.jsonl, 'utf8')).records;
    expect(rec).toEqual(filed);
    expect(page.bytes()).toBeLessThan(2 * STREAM_BYTES);
  });
});
