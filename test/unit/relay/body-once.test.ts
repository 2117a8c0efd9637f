// An upload is held once: the buffer the relay read is the one it forwards (no copy made
// for fetch) and the one its record keeps (no decoded copy), and lines waiting for the
// capture file are not copies of the record made in advance.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CaptureFile } from '../../../server/relay/capture-file.js';
import { ExchangeRecorder } from '../../../server/relay/exchange-recorder.js';
import { bodyOnce } from '../../../server/relay/forward.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { eventually, parseJsonl, putTargets, send, startRelay, startUpstream, TOKEN } from './relay-harness.js';

describe('a request body', () => {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
  });

  it('goes to fetch as the very buffer that was read, framed by its length', async () => {
    const bytes = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    const headers = new Headers();
    const { body } = bodyOnce(bytes, headers);
    const { value } = await body.getReader().read();
    expect(value).toBe(bytes);
    expect(headers.get('content-length')).toBe(String(bytes.length));
  });

  it('reaches the target whole with a Content-Length, not chunked, and is recorded as sent', async () => {
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    const h = await startRelay();
    const upstream = await startUpstream((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(parts).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    started.push(h, upstream);
    await putTargets(h, [{ id: 't', url: upstream.url }]);
    const sent = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { text: 'é✓'.repeat(50_000) } });
    expect((await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/t`, headers: { 'content-type': 'application/json' }, body: sent })).status).toBe(200);
    expect(seen[0].body).toBe(sent);
    expect(seen[0].headers['content-length']).toBe(String(Buffer.byteLength(sent)));
    expect(seen[0].headers['transfer-encoding']).toBeUndefined();
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records[0]?.state === 'complete');
    expect(parseJsonl(await readFile(h.jsonl, 'utf8')).records[0].request.body).toBe(sent);
  });

  it('is kept by its record as bytes, and read as text only when the record is written out', () => {
    const bytes = new TextEncoder().encode('{"a":"é"}');
    const recorder = new ExchangeRecorder({ id: 'x', seq: 0, startedAt: 1, method: 'POST', url: 'http://t/mcp', headers: [], body: bytes }, () => undefined);
    const field = Object.getOwnPropertyDescriptor(recorder.record.request, 'body')!;
    expect(field.value).toBeUndefined();
    expect(field.enumerable).toBe(true);
    expect(JSON.parse(JSON.stringify(recorder.record)).request.body).toBe('{"a":"é"}');
  });
});

describe('the capture file', () => {
  it('writes one line for steps of one exchange queued behind each other, the latest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-capture-once-'));
    try {
      const file = new CaptureFile(join(dir, 'c.jsonl'), () => undefined);
      const rec = (state: ExchangeRecord['state']): ExchangeRecord => ({ v: 1, id: 'a', seq: 0, source: 'relay', startedAt: 1, request: { method: 'POST', url: 'http://x/mcp', headers: [], body: 'b'.repeat(1000) }, state });
      await Promise.all([file.append(rec('pending')), file.append(rec('streaming')), file.append(rec('complete'))]);
      const lines = (await readFile(join(dir, 'c.jsonl'), 'utf8')).trim().split('\n').slice(1);
      expect(lines.map((l) => JSON.parse(l).state)).toEqual(['complete']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
