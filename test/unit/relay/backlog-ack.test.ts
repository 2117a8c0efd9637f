// The backlog's acknowledgement step (server/relay/backlog.ts): records leave the relay's
// JSONL file only once a page says it stored them, so a page closed mid-drain or a
// storage error on the page's side loses nothing; un-acknowledged records come again.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { lineId } from '../../../server/relay/capture-file.ts';
import { eventually, parseJsonl, putTargets, send, startRelay, startUpstream, TOKEN, type RawResponse, type RelayHarness } from './relay-harness.js';

describe('the relay backlog, handed over with acknowledgements', () => {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
  });

  // A relay with a JSON target, and `n` finished exchanges filed (no page is listening).
  async function filed(n: number): Promise<RelayHarness> {
    const upstream = await startUpstream((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    });
    const h = await startRelay();
    started.push(upstream, h);
    await putTargets(h, [{ id: 'local', url: upstream.url }]);
    for (let i = 0; i < n; i++) await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/local`, body: `{"n":${i}}` });
    await eventually(async () => (await onDisk(h)).filter((r) => r.state === 'complete').length === n);
    return h;
  }
  const onDisk = async (h: RelayHarness) => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records;
  const drain = (h: RelayHarness) => send(h.port, { method: 'POST', path: '/relay/api/backlog', headers: { origin: h.origin } });
  const ack = (h: RelayHarness, backlog: RawResponse, ids: string[]) =>
    send(h.port, {
      method: 'POST', path: '/relay/api/backlog/ack', headers: { origin: h.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ drain: backlog.headers['mrtr-drain'], ids }),
    });
  const idsOf = (r: RawResponse) => parseJsonl(r.text).records.map((x) => x.id);

  it('a drain that is never acknowledged (the page closed, or could not store it) removes nothing, and the next drain hands out the same records', async () => {
    const h = await filed(2);
    const first = await drain(h);
    expect(idsOf(first)).toHaveLength(2);
    expect((await onDisk(h)).map((r) => r.id)).toEqual(idsOf(first));
    const second = await drain(h);
    expect(idsOf(second)).toEqual(idsOf(first));
    expect(second.headers['mrtr-drain']).not.toBe(first.headers['mrtr-drain']);
  });

  it('removes only the acknowledged records; the others come again on the next drain', async () => {
    const h = await filed(3);
    const backlog = await drain(h);
    const [a, b, c] = idsOf(backlog);
    const res = await ack(h, backlog, [a!, c!]);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ removed: 2, left: 1 });
    expect(idsOf(await drain(h))).toEqual([b]);
    const header = (await readFile(h.jsonl, 'utf8')).split('\n')[0]!;
    expect(JSON.parse(header)).toMatchObject({ kind: 'mrtr-inspector-capture' });
  });

  it('keeps a newer line filed after the hand-out for an acknowledged id', async () => {
    // A target that holds its answer: the exchange is filed as pending/streaming first.
    let finish!: () => void;
    const held = new Promise<void>((r) => (finish = r));
    const upstream = await startUpstream((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
      void held.then(() => res.end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    });
    const h = await startRelay();
    started.push(upstream, h);
    await putTargets(h, [{ id: 'slow', url: upstream.url }]);
    const call = send(h.port, { method: 'POST', path: `/relay/${TOKEN}/slow`, body: '{}' });
    await eventually(async () => (await onDisk(h))[0]?.state === 'streaming');

    const backlog = await drain(h);
    const [handed] = parseJsonl(backlog.text).records;
    expect(handed?.state).toBe('streaming');
    finish();
    expect((await call).status).toBe(200);
    await eventually(async () => (await onDisk(h))[0]?.state === 'complete');

    // The page stored the streaming copy; the complete line it never saw must stay.
    expect((await ack(h, backlog, [handed!.id])).json()).toEqual({ removed: 0, left: 1 });
    const next = parseJsonl((await drain(h)).text).records;
    expect(next.map((r: ExchangeRecord) => [r.id, r.state])).toEqual([[handed!.id, 'complete']]);
  });

  it('refuses an unknown drain and a malformed acknowledgement, removing nothing', async () => {
    const h = await filed(1);
    const backlog = await drain(h);
    const unknown = await send(h.port, {
      method: 'POST', path: '/relay/api/backlog/ack', headers: { origin: h.origin },
      body: JSON.stringify({ drain: 'not-a-drain', ids: idsOf(backlog) }),
    });
    expect(unknown.status).toBe(409);
    expect(unknown.json().error).toMatch(/come again on the next drain/);
    const malformed = await send(h.port, { method: 'POST', path: '/relay/api/backlog/ack', headers: { origin: h.origin }, body: '{"drain":1}' });
    expect(malformed.status).toBe(400);
    const foreign = await send(h.port, {
      method: 'POST', path: '/relay/api/backlog/ack', headers: { origin: 'http://evil.example' },
      body: JSON.stringify({ drain: backlog.headers['mrtr-drain'], ids: idsOf(backlog) }),
    });
    expect(foreign.status).toBe(403);
    expect((await onDisk(h)).map((r) => r.id)).toEqual(idsOf(backlog));
    // The real drain id still works after those refusals, once.
    expect((await ack(h, backlog, idsOf(backlog))).json()).toEqual({ removed: 1, left: 0 });
    expect((await ack(h, backlog, idsOf(backlog))).status).toBe(409);
  });

  it('two pages draining the same backlog both get it; their acknowledgements together empty the file', async () => {
    const h = await filed(2);
    const [one, two] = await Promise.all([drain(h), drain(h)]);
    expect(idsOf(one)).toEqual(idsOf(two));
    expect((await ack(h, one, idsOf(one))).json()).toEqual({ removed: 2, left: 0 });
    expect((await ack(h, two, idsOf(two))).json()).toEqual({ removed: 0, left: 0 });
    expect(await readFile(h.jsonl, 'utf8')).toBe('');
  });

  it('finds the id of every line the relay files without a parse, and copies the lines not acknowledged byte for byte', async () => {
    const h = await filed(3);
    const lines = async () => (await readFile(h.jsonl, 'utf8')).split('\n').filter((l) => l !== '');
    const before = await lines();
    // Every record line (the header aside) takes the quick way of the rewrite (capture-line-id.test.ts).
    expect(before.slice(1).map(lineId)).toEqual(before.slice(1).map((l) => (JSON.parse(l) as { id: string }).id));
    const backlog = await drain(h);
    const last = idsOf(backlog).at(-1)!;
    const res = await ack(h, backlog, [last]);
    expect(res.json()).toEqual({ removed: 1, left: 2 });
    expect((await lines()).slice(1)).toEqual(before.slice(1).filter((l) => lineId(l) !== last));
  });
});
