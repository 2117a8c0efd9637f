// A browser that loads anything under /relay/<token>/… sends the relay URL, token and all, as
// Referer on its next requests. The relay must not pass that on to the target, nor keep it
// in the capture file or the records pushed to pages, and its answers ask for no referrer.
import { readFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openEvents, putTargets, send, startRelay, startUpstream, TOKEN, type RelayHarness, type Upstream } from './relay-harness.js';

describe('the Referer header at the relay', () => {
  let h: RelayHarness;
  let upstream: Upstream;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    h = await startRelay();
    upstream = await startUpstream((req, res) => {
      seen.push(req.headers);
      req.resume();
      // A target that would like the referrer kept: its policy must not reach the client.
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'referrer-policy': 'unsafe-url' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    });
    expect((await putTargets(h, [{ id: 'local', url: upstream.url }])).status).toBe(200);
  });
  afterAll(async () => {
    await upstream.close();
    await h.close();
  });

  const leaky = () => ({ referer: `${h.relayUrl('local')}?js=1`, 'content-type': 'application/json' });

  it('is not forwarded to the target, and the answer says Referrer-Policy: no-referrer', async () => {
    const r = await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/local`, headers: leaky(), body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(r.status).toBe(200);
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    const got = seen.at(-1)!;
    expect(got.referer).toBeUndefined();
    expect(JSON.stringify(got)).not.toContain(TOKEN);
  });

  it('is not in the capture file', async () => {
    await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/local`, headers: leaky(), body: '{"jsonrpc":"2.0","id":2,"method":"ping"}' });
    await eventually(async () => (await readFile(h.jsonl, 'utf8').catch(() => '')).includes('"complete"'));
    const text = await readFile(h.jsonl, 'utf8');
    expect(text).toContain('"content-type"');
    expect(text.toLowerCase()).not.toContain('"referer"');
    expect(text).not.toContain(TOKEN);
  });

  it("is not in the records pushed to a page, nor sent on by the page's forwarder", async () => {
    const page = await openEvents(h.port, { path: '/relay/api/events', headers: { origin: h.origin } });
    try {
      await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/local`, headers: leaky(), body: '{"jsonrpc":"2.0","id":3,"method":"ping"}' });
      const first = await page.next(10_000);
      expect(first).toContain('"content-type"');
      expect(first.toLowerCase()).not.toContain('"referer"');
      expect(first).not.toContain(TOKEN);
    } finally {
      page.close();
    }
    const fwd = await send(h.port, { method: 'POST', path: '/relay/api/forward/local', headers: { ...leaky(), origin: h.origin }, body: '{}' });
    expect(fwd.status).toBe(200);
    expect(fwd.headers['referrer-policy']).toBe('no-referrer');
    expect(seen.at(-1)!.referer).toBeUndefined();
  });
});
