import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CaptureFile } from '../../../server/relay/capture-file.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { eventually, openPage, parseJsonl, putTargets, send, startRelay, startUpstream, TOKEN } from './relay-harness.js';

const jsonTarget = () => startUpstream((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
});

function record(id: string, state: ExchangeRecord['state']): ExchangeRecord {
  return { v: 1, id, seq: 0, source: 'relay', startedAt: 1, request: { method: 'POST', url: 'http://x/mcp', headers: [] }, state };
}

describe('where relay captures go', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  it('keeps the target list in a JSON file beside the capture file across restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-relay-restart-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const upstream = await jsonTarget();
    cleanup.push(() => upstream.close());
    const first = await startRelay({ dir });
    await putTargets(first, [{ id: 'local', url: upstream.url }]);
    await first.close();
    expect(JSON.parse(await readFile(join(dir, 'capture.targets.json'), 'utf8'))).toEqual([{ id: 'local', url: upstream.url }]);

    const second = await startRelay({ dir });
    cleanup.push(() => second.close());
    const listed = await send(second.port, { path: '/relay/api/targets', headers: { origin: second.origin } });
    expect(listed.json<{ targets: unknown[] }>().targets).toEqual([
      { id: 'demo', url: `${second.origin}/demo/mcp`, builtin: true },
      { id: 'local', url: upstream.url },
    ]);
    expect((await send(second.port, { method: 'POST', path: `/relay/${TOKEN}/local`, body: '{}' })).status).toBe(200);
  });

  it('tells the page its relay URLs and capture path, and refuses a cross-site request for them', async () => {
    const h = await startRelay();
    cleanup.push(() => h.close());
    const info = await send(h.port, { path: '/relay/api/info', headers: { 'sec-fetch-site': 'same-origin' } });
    expect(info.json()).toEqual({
      version: 1,
      relayUrl: `${h.origin}/relay/${TOKEN}/<target>/mcp`,
      demoUrl: `${h.origin}/demo/mcp`,
      jsonlPath: h.jsonl,
      targets: [{ id: 'demo', url: `${h.origin}/demo/mcp`, builtin: true, relayUrl: `${h.origin}/relay/${TOKEN}/demo/mcp` }],
    });
    const crossSite = await send(h.port, { path: '/relay/api/info', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.text).not.toContain(TOKEN);
  });

  it('with no page open, appends records to the JSONL file; backlog hands them out, and once acknowledged the file is empty', async () => {
    const upstream = await jsonTarget();
    const h = await startRelay();
    cleanup.push(() => upstream.close(), () => h.close());
    await putTargets(h, [{ id: 'local', url: upstream.url }]);
    for (let i = 0; i < 3; i++) await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/local`, body: `{"n":${i}}` });
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records.filter((r) => r.state === 'complete').length === 3);

    const backlog = await send(h.port, { method: 'POST', path: '/relay/api/backlog', headers: { origin: h.origin } });
    expect(backlog.status).toBe(200);
    expect(backlog.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(backlog.headers['mrtr-drain']).toMatch(/^[0-9a-f-]{36}$/);
    const { header, records } = parseJsonl(backlog.text);
    expect(header).toMatchObject({ kind: 'mrtr-inspector-capture', version: 1, createdAt: expect.any(String) });
    expect(records.map((r) => [r.seq, r.state, r.request.body])).toEqual([[0, 'complete', '{"n":0}'], [1, 'complete', '{"n":1}'], [2, 'complete', '{"n":2}']]);
    const ack = await send(h.port, {
      method: 'POST', path: '/relay/api/backlog/ack', headers: { origin: h.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ drain: backlog.headers['mrtr-drain'], ids: records.map((r) => r.id) }),
    });
    expect(ack.status).toBe(200);
    expect(ack.json()).toEqual({ removed: 3, left: 0 });
    const again = await send(h.port, { path: '/relay/api/backlog', headers: { 'sec-fetch-site': 'same-origin' } });
    expect(again.text).toBe('');
    expect((await stat(h.jsonl)).size).toBe(0);
  });

  it('with a page open, pushes each record over /relay/api/events and writes nothing to the file', async () => {
    const upstream = await jsonTarget();
    const h = await startRelay();
    cleanup.push(() => upstream.close(), () => h.close());
    await putTargets(h, [{ id: 'local', url: upstream.url }]);
    const page = await openPage(h);
    cleanup.push(async () => page.close());
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/event-stream/);
    await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/local`, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    const seen: ExchangeRecord[] = [];
    while (seen.at(-1)?.state !== 'complete') seen.push(await page.next());
    expect(seen.map((r) => r.state)).toEqual(['pending', 'streaming', 'complete']);
    expect(new Set(seen.map((r) => r.id)).size).toBe(1);
    expect(seen[2]).toMatchObject({ source: 'relay', response: { status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{}}' } });
    await h.relay.close();
    await expect(readFile(h.jsonl, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('falls back to the file as soon as the last page goes away', async () => {
    const upstream = await jsonTarget();
    const h = await startRelay();
    cleanup.push(() => upstream.close(), () => h.close());
    await putTargets(h, [{ id: 'local', url: upstream.url }]);
    const page = await openPage(h);
    page.close();
    // Give the server a moment to see the socket close (until then a push would still count).
    await new Promise((r) => setTimeout(r, 100));
    await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/local`, body: '{}' });
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records[0]?.state === 'complete');
  });

  it('a line queued behind a removal lands after the rewrite and still counts as filed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-capture-file-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const file = new CaptureFile(join(dir, 'c.jsonl'), () => undefined);
    await file.append(record('a', 'pending'));
    const latest = await (await file.read()).latest;
    expect([...latest.keys()]).toEqual(['a']);
    const removing = file.remove(latest, new Set(['a']));
    const late = file.append(record('b', 'pending'));
    expect(file.has('b')).toBe(true);
    expect(await removing).toEqual({ removed: 1, left: 0 });
    await late;
    expect(file.has('a')).toBe(false);
    expect(file.has('b')).toBe(true);
    const rest = parseJsonl(await readFile(join(dir, 'c.jsonl'), 'utf8'));
    expect(rest.header).toBeDefined();
    expect(rest.records.map((r) => r.id)).toEqual(['b']);
  });
});
