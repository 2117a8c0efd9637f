import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonl } from '../../../worker/capture/jsonl.js';
import { eventually, parseJsonl, send, startRelay, TOKEN, type RelayHarness } from './relay-harness.js';

// What an external client's refused request leaves behind: a record the page lists as
// refused, with the relay's reason, and no token in it.
describe('refused relay requests', () => {
  let h: RelayHarness;
  beforeEach(async () => {
    h = await startRelay();
  });
  afterEach(async () => {
    await h.close();
  });

  const captured = async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records;

  it('records a wrong token, an unknown target and a bad path as refused, each with its reason, and never the token', async () => {
    const wrong = 'wrong-token-aaaaaaaaaaaaaaaa';
    const rpc = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    expect((await send(h.port, { method: 'POST', path: `/relay/${wrong}/demo/mcp`, body: rpc })).status).toBe(403);
    expect((await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/nowhere/mcp`, body: rpc })).status).toBe(404);
    expect((await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/demo/sse`, body: rpc })).status).toBe(404);
    await eventually(async () => (await captured()).length === 3);

    const [badToken, unknown, badPath] = await captured();
    for (const r of [badToken, unknown, badPath]) {
      expect(r).toMatchObject({ source: 'relay', state: 'failed' });
      expect(r.request.body).toBeUndefined();
      expect(JSON.parse(r.response!.body!)).toEqual({ error: r.refused });
    }
    expect(badToken.refused).toMatch(/wrong relay token/);
    expect(badToken.request.url).toBe(`${h.origin}/relay/<wrong-token>/demo/mcp`);
    expect(badToken.response?.status).toBe(403);
    expect(unknown.refused).toMatch(/Unknown target "nowhere"/);
    expect(unknown.request.url).toBe(`${h.origin}/relay/<token>/nowhere/mcp`);
    expect(badPath.refused).toMatch(/\/relay\/<token>\/<target>\/mcp/);
    const text = await readFile(h.jsonl, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(wrong);
    // The page's own reader keeps the reason (it is what the exchange list shows).
    expect(readJsonl(text).exchanges.map((r) => r.refused)).toEqual([badToken.refused, unknown.refused, badPath.refused]);
  });

  it('keeps no Cookie, Authorization or Referer of a refused request, so no secret a web page made the browser send is stored', async () => {
    // A page on another port can make the browser send these: the browser adds the cookies
    // of 127.0.0.1 (the inspector's own page cookie among them) and a Referer that may name
    // a relay URL with the token; a client sends its bearer token for the target.
    const secrets = { cookie: 'mrtr_page=cookie-secret-1234', authorization: 'Bearer bearer-secret-5678', referer: `${h.origin}/relay/${TOKEN}/demo/mcp` };
    const r = await send(h.port, {
      method: 'POST', path: '/relay/wrong-token-bbbbbbbbbbbbbbbb/demo/mcp',
      headers: { ...secrets, 'Proxy-Authorization': 'Basic proxy-secret-9999', 'x-kept': 'kept' },
      body: '{}',
    });
    expect(r.status).toBe(403);
    await eventually(async () => (await captured()).length === 1);
    const [refused] = await captured();
    const names = refused.request.headers.map((x) => x.name.toLowerCase());
    expect(names).toContain('x-kept');
    for (const gone of ['cookie', 'authorization', 'proxy-authorization', 'referer']) expect(names).not.toContain(gone);
    const text = await readFile(h.jsonl, 'utf8');
    for (const secret of ['cookie-secret-1234', 'bearer-secret-5678', 'proxy-secret-9999', TOKEN]) expect(text).not.toContain(secret);
  });

  it('accepts the /mcp form of a relay URL, which clients need to tell the transport', async () => {
    const r = await send(h.port, {
      method: 'POST', path: `/relay/${TOKEN}/demo/mcp`,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(r.status).toBe(200);
    await eventually(async () => (await captured()).some((x) => x.state === 'complete'));
    expect((await captured()).filter((x) => x.refused !== undefined)).toEqual([]);
  });
});
