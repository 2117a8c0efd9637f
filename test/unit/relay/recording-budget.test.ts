// Parallel uploads must not make the relay hold an unbounded sum of bodies for recording:
// past the byte budget an exchange still passes through whole (the client under test keeps
// working), but its body is not recorded and the record says so, with the size. Once the
// burst is over the budget is free again.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeRecorder } from '../../../server/relay/exchange-recorder.js';
import { RecordingBudget } from '../../../server/relay/recording-budget.js';
import { eventually, parseJsonl, putTargets, send, startRelay, startUpstream, TOKEN } from './relay-harness.js';

const MiB = 1024 * 1024;

describe('the relay recording budget', () => {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
  });

  it('passes parallel uploads past the budget through whole, their bodies unrecorded and marked with the size', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const received: number[] = [];
    const h = await startRelay({ maxRecordedBytes: 1 * MiB, maxRecordingBytes: 3 * MiB });
    const upstream = await startUpstream((req, res) => {
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => {
        received.push(n);
        void gate.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ n })));
      });
    });
    started.push(h, upstream);
    expect((await putTargets(h, [{ id: 't', url: upstream.url }])).status).toBe(200);
    const upload = (fill: string) => send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: fill.repeat(MiB - 20) }) });
    // Six 1 MiB uploads held open at the target at once: twice what the budget holds.
    const answers = ['a', 'b', 'c', 'd', 'e', 'f'].map(upload);
    await eventually(() => received.length === 6, 20_000);
    release();
    const done = await Promise.all(answers);
    expect(done.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(received.every((n) => n > MiB - 20)).toBe(true);
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records.filter((r) => r.state === 'complete').length === 6, 20_000);
    const records = parseJsonl(await readFile(h.jsonl, 'utf8')).records;
    const kept = records.filter((r) => r.request.body !== undefined);
    const marked = records.filter((r) => r.request.truncated?.recordedBytes === 0);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(3);
    expect(marked.length).toBe(6 - kept.length);
    for (const r of marked) expect(r.request.truncated!.totalBytes).toBeGreaterThan(MiB - 20);
    // The burst is over: the next upload is recorded whole again.
    await upload('g');
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8')).records.length === 7, 20_000);
    const last = parseJsonl(await readFile(h.jsonl, 'utf8')).records.at(-1)!;
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8')).records.at(-1)!.state === 'complete', 20_000);
    expect(last.request.body?.startsWith('{"pad":"g')).toBe(true);
    expect(last.request.truncated).toBeUndefined();
  });
});

describe('a recorder sharing the budget', () => {
  it('stops recording a response that does not fit, marks it with the size, and gives its bytes back at the end', () => {
    const budget = new RecordingBudget(1000);
    const start = (id: string) => ({ id, seq: 0, startedAt: 1, method: 'POST', url: 'http://t/mcp', headers: [] });
    const head = new Response(null, { headers: { 'content-type': 'application/json' } });
    const first = new ExchangeRecorder(start('a'), () => undefined, 4096, budget);
    const second = new ExchangeRecorder(start('b'), () => undefined, 4096, budget);
    first.head(head);
    second.head(head);
    first.chunk(new Uint8Array(800).fill(0x61));
    second.chunk(new Uint8Array(100).fill(0x62));
    second.chunk(new Uint8Array(300).fill(0x62));
    second.end();
    expect(second.record.response!.body).toBe('b'.repeat(100));
    expect(second.record.response!.truncated).toEqual({ recordedBytes: 100, totalBytes: 400 });
    expect(budget.held).toBe(800);
    first.end();
    expect(budget.held).toBe(0);
    expect(first.record.response!.truncated).toBeUndefined();
  });
});
