import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, openEvents, parseJsonl, putTargets, send, startRelay, startUpstream, type RelayHarness, type Upstream } from './relay-harness.js';

// A target that sends one event, holds the second until the test releases it, then ends.
// `upstreamClosed` resolves when the relay's upstream connection goes away.
function gatedSse() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let secondSentAt = 0;
  let onClosed!: () => void;
  const upstreamClosed = new Promise<void>((r) => (onClosed = r));
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    res.on('close', onClosed);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('id: 1\ndata: {"n":1}\n\n');
    void gate.then(() => {
      if (res.destroyed) return;
      secondSentAt = Date.now();
      res.write('event: message\ndata: {"n":2}\n\n');
      res.end();
    });
  };
  return { handler, release, upstreamClosed, secondSentAt: () => secondSentAt };
}

describe('relay forwarding', () => {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
  });
  const setup = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<[RelayHarness, Upstream]> => {
    const h = await startRelay();
    const upstream = await startUpstream(handler);
    started.push(h, upstream);
    expect((await putTargets(h, [{ id: 'sse', url: upstream.url }])).status).toBe(200);
    return [h, upstream];
  };

  it('streams an event stream through the relay URL event by event and records each event', async () => {
    const sse = gatedSse();
    const [h] = await setup(sse.handler);
    const reader = await openEvents(h.port, { method: 'POST', path: `/relay/${'test-token-0123456789abcdef'}/sse`, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' });
    expect(reader.status).toBe(200);
    expect(reader.headers['content-type']).toBe('text/event-stream');
    // The first event arrives while the target still holds the second.
    expect(await reader.next()).toBe('{"n":1}');
    expect(sse.secondSentAt()).toBe(0);
    const firstAt = Date.now();
    sse.release();
    expect(await reader.next()).toBe('{"n":2}');
    expect(sse.secondSentAt()).toBeGreaterThanOrEqual(firstAt);

    // No page is open, so the exchange lands in the capture file, events stamped on arrival.
    let records: ReturnType<typeof parseJsonl>['records'] = [];
    await eventually(async () => {
      records = parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records;
      return records[0]?.state === 'complete';
    });
    const [rec] = records;
    expect(rec).toMatchObject({ source: 'relay', seq: 0, state: 'complete', request: { method: 'POST', url: expect.stringMatching(/\/mcp$/) } });
    expect(rec.request.body).toBe('{"jsonrpc":"2.0","id":1,"method":"tools/call"}');
    expect(rec.request.url).not.toContain('test-token');
    expect(rec.client).toMatch(/^relay-conn-\d+:\d+$/);
    expect(rec.response?.events?.map((e) => [e.id, e.event, e.data])).toEqual([['1', undefined, '{"n":1}'], [undefined, 'message', '{"n":2}']]);
    const [e1, e2] = rec.response!.events!;
    expect(e1.t).toBeLessThanOrEqual(sse.secondSentAt());
    expect(e2.t).toBeGreaterThanOrEqual(sse.secondSentAt());
    expect(rec.response?.body).toBeUndefined();
    reader.close();
  });

  it("streams through the page's forwarder with CORS for the app origin, and leaves recording to the service worker", async () => {
    const sse = gatedSse();
    const [h] = await setup(sse.handler);
    const reader = await openEvents(h.port, { method: 'POST', path: '/relay/api/forward/sse', headers: { origin: h.origin, 'content-type': 'application/json' }, body: '{}' });
    expect(reader.status).toBe(200);
    expect(reader.headers['access-control-allow-origin']).toBe(h.origin);
    expect(reader.headers['access-control-expose-headers']).toContain('content-type');
    expect(await reader.next()).toBe('{"n":1}');
    expect(sse.secondSentAt()).toBe(0);
    sse.release();
    expect(await reader.next()).toBe('{"n":2}');
    reader.close();
    await h.relay.close();
    await expect(readFile(h.jsonl, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it("closing the client's stream closes the upstream connection and records the exchange as aborted", async () => {
    const sse = gatedSse();
    const [h] = await setup(sse.handler);
    const reader = await openEvents(h.port, { method: 'POST', path: '/relay/test-token-0123456789abcdef/sse', body: '{}' });
    expect(await reader.next()).toBe('{"n":1}');
    reader.close();
    await sse.upstreamClosed;
    sse.release();
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records[0]?.state === 'aborted');
    const [rec] = parseJsonl(await readFile(h.jsonl, 'utf8')).records;
    expect(rec.error).toMatch(/client closed the connection/);
    expect(rec.response?.events).toHaveLength(1);
  });

  it('an upstream that dies mid-event cuts the client too, and the aborted record keeps the unterminated tail', async () => {
    const [h] = await setup((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\ndata: {"partial"');
      setTimeout(() => res.destroy(), 50);
    });
    const reader = await openEvents(h.port, { method: 'POST', path: '/relay/test-token-0123456789abcdef/sse', body: '{}' });
    expect(await reader.next()).toBe('{"n":1}');
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records[0]?.state === 'aborted');
    const [rec] = parseJsonl(await readFile(h.jsonl, 'utf8')).records;
    expect(rec.error).toMatch(/target closed the connection before the response ended/);
    expect(rec.response?.events?.map((e) => e.data)).toEqual(['{"n":1}']);
    expect(rec.response?.tail).toBe('data: {"partial"');
    reader.close();
  });

  it('forwards method, query, body and headers, minus hop-by-hop ones, Host and Origin', async () => {
    let seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string } | undefined;
    const [h, upstream] = await setup((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, headers: req.headers, body };
        res.writeHead(201, { 'content-type': 'application/json', 'mcp-session-id': 'abc', 'set-cookie': 'a=1' }).end('{"ok":true}');
      });
    });
    const r = await send(h.port, {
      method: 'POST',
      path: '/relay/test-token-0123456789abcdef/sse?x=1',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', connection: 'keep-alive, x-hop', 'x-hop': 'drop me', 'keep-alive': 'timeout=5', origin: 'http://elsewhere.example', 'x-custom': 'kept' },
      body: '{"jsonrpc":"2.0","id":7,"method":"ping"}',
    });
    expect(r.status).toBe(201);
    expect(r.text).toBe('{"ok":true}');
    expect(r.headers['mcp-session-id']).toBe('abc');
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/mcp?x=1');
    expect(seen?.body).toBe('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    expect(seen?.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'x-custom': 'kept', host: new URL(upstream.url).host });
    expect(seen?.headers).not.toHaveProperty('origin');
    expect(seen?.headers).not.toHaveProperty('x-hop');
    expect(seen?.headers).not.toHaveProperty('keep-alive');
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records[0]?.state === 'complete');
    const [rec] = parseJsonl(await readFile(h.jsonl, 'utf8')).records;
    expect(rec.response).toMatchObject({ status: 201, body: '{"ok":true}' });
    // The record keeps the client's headers as sent, in order.
    expect(rec.request.headers.map((p) => p.name.toLowerCase()).slice(1, 4)).toEqual(['content-type', 'mcp-protocol-version', 'connection']);
  });

  it('answers 502 with the reason when the target is down, and records the failure', async () => {
    const h = await startRelay();
    started.push(h);
    const gone = await startUpstream(() => undefined);
    await gone.close(); // a port that was just free: nothing listens there now
    await putTargets(h, [{ id: 'down', url: gone.url }]);
    const r = await send(h.port, { method: 'POST', path: '/relay/test-token-0123456789abcdef/down', body: '{}' });
    expect(r.status).toBe(502);
    expect(r.json().error).toContain(`Could not reach target "down" at ${gone.url}`);
    expect(r.json().error).toMatch(/ECONNREFUSED.*Is that server running/);
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records[0]?.state === 'failed');
  });
});
