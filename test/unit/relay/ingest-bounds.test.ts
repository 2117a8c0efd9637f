// `POST /relay/ingest` bounded like relayed traffic: a stdio record's URL is stdio://, one
// record holds at most the per-exchange limit, batches are capped in bytes and in how many
// are read at once, held open records count against the recording budget, and deltas
// continue a held record (or are sent back to be sent whole).
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_INGEST_BYTES } from '../../../server/relay/stdio-ingest.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { send, startRelay, TOKEN, type RelayHarness } from './relay-harness.js';

const record = (over: Partial<ExchangeRecord> = {}): ExchangeRecord => ({
  v: 1, id: 'r1', seq: 0, source: 'relay', client: 'stdio:x:1', startedAt: 1,
  request: { method: 'POST', url: 'stdio://x', headers: [], body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' },
  state: 'pending', stdio: { name: 'x' }, ...over,
});
const ingest = (h: RelayHarness, body: unknown) =>
  send(h.port, { method: 'POST', path: '/relay/ingest', headers: { 'content-type': 'application/json', 'x-mrtr-relay-token': TOKEN }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('relay ingest bounds', () => {
  let h: RelayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('refuses a stdio record whose URL is https (it would pass for HTTP traffic with its authorization header)', async () => {
    h = await startRelay();
    const forged = record({ request: { method: 'POST', url: 'https://api.example/mcp', headers: [{ name: 'authorization', value: 'Bearer x' }] }, state: 'complete' });
    const r = await ingest(h, [forged]);
    expect(r.status).toBe(400);
    expect(r.text).toContain('marked stdio but its URL is not stdio://');
  });

  it('refuses a record holding more than the per-exchange limit, naming it', async () => {
    h = await startRelay({ maxRecordedBytes: 1000 });
    const big = record({ state: 'complete', response: { status: 200, headers: [], receivedAt: 2, events: [{ t: 2, data: 'y'.repeat(1001) }] } });
    const r = await ingest(h, [record({ id: 'ok', state: 'complete' }), big]);
    expect(r.status).toBe(413);
    expect(r.text).toContain('Record 1: its response holds 1001 bytes, more than the 1000');
  });

  it('refuses a batch past its byte cap at the real default', async () => {
    h = await startRelay();
    const r = await ingest(h, `[${' '.repeat(MAX_INGEST_BYTES)}]`);
    expect(r.status).toBe(413);
  });

  it('reads at most two batches at once and answers a third busy', async () => {
    h = await startRelay();
    const slow = () => {
      const req = httpRequest({ host: '127.0.0.1', port: h!.port, method: 'POST', path: '/relay/ingest', headers: { 'content-type': 'application/json', 'x-mrtr-relay-token': TOKEN, 'content-length': 1000 } });
      req.on('error', () => undefined);
      req.write('[');
      return req;
    };
    const held = [slow(), slow()];
    await new Promise((r) => setTimeout(r, 200));
    const third = await ingest(h, [record({ state: 'complete' })]);
    expect(third.status).toBe(503);
    for (const r of held) r.destroy();
  });

  it('counts held open records against the recording budget and refuses past it as busy', async () => {
    h = await startRelay({ maxRecordingBytes: 3000 });
    const open = (id: string) => record({ id, request: { method: 'POST', url: 'stdio://x', headers: [], body: 'b'.repeat(1400) } });
    expect((await ingest(h, [open('a'), open('b')])).status).toBe(200);
    const third = await ingest(h, [open('c')]);
    expect(third.status).toBe(503);
    // A finished copy gives its bytes back.
    expect((await ingest(h, [{ ...open('a'), state: 'complete' }])).status).toBe(200);
    expect((await ingest(h, [open('c')])).status).toBe(200);
  });

  it('continues a held record with a delta, and asks for the whole record when it holds none', async () => {
    h = await startRelay();
    expect((await ingest(h, [record({ state: 'streaming', response: { status: 200, headers: [], receivedAt: 2, events: [{ t: 2, data: 'a' }] } })])).status).toBe(200);
    const delta = (id: string, from: number) => ({ push: 1, kind: 'delta', id, state: 'streaming', from, events: [{ t: 3, data: 'b' }] });
    const ok = await ingest(h, [delta('r1', 1)]);
    expect(ok.json()).toEqual({ accepted: 1 });
    const gap = await ingest(h, [delta('r1', 5), delta('nobody', 0)]);
    expect(gap.json()).toEqual({ accepted: 2, resend: ['r1', 'nobody'] });
  });
});
