// A hostile target must not exhaust the relay's memory or disk: a huge answer passes through
// whole but only its start is recorded (marked truncated, with the size), a long burst of
// events is pushed to pages as a few snapshots rather than one per event, a page that stops
// reading is dropped once its buffer passes the bound, and parallel exchanges are bounded.
import { createConnection } from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { eventually, loadPage, openPage, parseJsonl, putTargets, send, startRelay, startUpstream, TOKEN } from './relay-harness.js';

const MiB = 1024 * 1024;

describe('relay memory bounds', () => {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
  });

  async function setup(opts: Parameters<typeof startRelay>[0], handler: Parameters<typeof startUpstream>[0]) {
    const h = await startRelay(opts);
    const upstream = await startUpstream(handler);
    started.push(h, upstream);
    expect((await putTargets(h, [{ id: 't', url: upstream.url }])).status).toBe(200);
    return h;
  }

  it('passes a large answer through whole but records only its start, marked truncated with the size', async () => {
    const size = 20 * MiB;
    const h = await setup({ maxRecordedBytes: 1 * MiB }, (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('x'.repeat(size));
    });
    const big = 'y'.repeat(3 * MiB);
    const r = await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, headers: { 'content-type': 'application/json' }, body: big });
    expect(r.text.length).toBe(size);
    await eventually(async () => (await readFile(h.jsonl, 'utf8').catch(() => '')).includes('"complete"'), 10_000);
    const [rec] = parseJsonl(await readFile(h.jsonl, 'utf8')).records;
    expect(rec.response?.body?.length).toBe(1 * MiB);
    expect(rec.response?.truncated).toEqual({ recordedBytes: 1 * MiB, totalBytes: size });
    expect(rec.request.body?.length).toBe(1 * MiB);
    expect(rec.request.truncated).toEqual({ recordedBytes: 1 * MiB, totalBytes: 3 * MiB });
  });

  it('records only complete events up to the bound of a long stream; the client gets every event', async () => {
    const event = `data: ${'e'.repeat(1000)}\n\n`;
    const h = await setup({ maxRecordedBytes: 100 * 1024 }, (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(event.repeat(2000));
    });
    const r = await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, body: '{}' });
    expect(r.text.split('\n\n').filter(Boolean)).toHaveLength(2000);
    await eventually(async () => (await readFile(h.jsonl, 'utf8').catch(() => '')).includes('"complete"'), 10_000);
    const [rec] = parseJsonl(await readFile(h.jsonl, 'utf8')).records;
    expect(rec.response!.events!.length).toBe(Math.floor((100 * 1024) / event.length));
    expect(rec.response!.events!.every((e) => e.data.length === 1000)).toBe(true);
    expect(rec.response!.tail).toBeUndefined();
    expect(rec.response!.truncated).toEqual({ recordedBytes: 100 * 1024, totalBytes: event.length * 2000 });
  });

  it('pushes a burst of events to a page as a few pushes, the record they build holding every recorded event', async () => {
    const h = await setup({}, (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const tick = () => {
        for (let i = 0; i < 100 && n < 1000; i++, n++) res.write(`data: {"n":${n}}\n\n`);
        if (n < 1000) setImmediate(tick);
        else res.end();
      };
      tick();
    });
    const page = await openPage(h);
    started.push({ close: async () => page.close() });
    await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, body: '{}' });
    const snapshots: ExchangeRecord[] = [];
    for (;;) {
      const rec = await page.next(10_000);
      snapshots.push(rec);
      if (rec.state === 'complete') break;
    }
    expect(snapshots.at(-1)!.response!.events).toHaveLength(1000);
    // One per event would be 1000 snapshots (and ~16 MB of pushes); the bound leaves a few.
    expect(snapshots.length).toBeLessThan(50);
  });

  it('drops a page that stops reading once its buffer passes the bound, and files what follows', async () => {
    const h = await setup({ maxPageBuffer: 256 * 1024 }, (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ pad: 'p'.repeat(200 * 1024) }));
    });
    // A page that opens the stream and never reads a byte.
    const jar = await loadPage(h.port);
    const socket = createConnection({ host: '127.0.0.1', port: h.port });
    socket.write(`GET /relay/api/events HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nOrigin: ${h.origin}\r\nCookie: ${jar}\r\n\r\n`);
    socket.pause();
    started.push({ close: async () => void socket.destroy() });
    await eventually(() => h.relay.pages() === 1);
    for (let i = 0; i < 40 && h.relay.pages() > 0; i++) await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, body: '{}' });
    expect(h.relay.pages()).toBe(0);
    await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, body: '{"after":true}' });
    await eventually(async () => (await readFile(h.jsonl, 'utf8').catch(() => '')).includes('{\\"after\\":true}'), 10_000);
  });

  it('refuses exchanges past the concurrency bound with 503, and takes them again after', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = await setup({ maxConcurrent: 2 }, (req, res) => {
      req.resume();
      void gate.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    const held = [1, 2].map(() => send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, body: '{}' }));
    await eventually(async () => (await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, body: '{}' })).status === 503);
    release();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    expect((await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, body: '{}' })).status).toBe(200);
  });
});
