import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putTargets, send, startRelay, startUpstream, TOKEN, type RelayHarness, type Upstream } from './relay-harness.js';

// Every refusal: the status, a JSON `{ error }` that says how to fix it, and never the token.
describe('relay refusals', () => {
  let h: RelayHarness;
  let upstream: Upstream;

  beforeAll(async () => {
    h = await startRelay();
    upstream = await startUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    expect((await putTargets(h, [{ id: 'local', url: upstream.url }])).status).toBe(200);
  });
  afterAll(async () => {
    await upstream.close();
    await h.close();
  });

  const expectRefusal = (r: { status: number; headers: Record<string, unknown>; text: string }, status: number, pattern: RegExp) => {
    expect(r.status).toBe(status);
    expect(String(r.headers['content-type'])).toMatch(/^application\/json/);
    const body = JSON.parse(r.text) as { error: string };
    expect(body.error).toMatch(pattern);
    expect(r.text).not.toContain(TOKEN);
    return body.error;
  };

  it('refuses a page API call from a foreign Origin with 403', async () => {
    const r = await send(h.port, { path: '/relay/api/targets', headers: { origin: 'https://evil.example' } });
    expectRefusal(r, 403, /only answers the inspector page at http:\/\/127\.0\.0\.1:\d+.*evil\.example/);
  });

  it('refuses a page API call that carries neither Origin nor Sec-Fetch-Site', async () => {
    const r = await send(h.port, { path: '/relay/api/targets' });
    expectRefusal(r, 403, /carries no Origin/);
  });

  it("accepts the page's own origin, as 127.0.0.1 or localhost, and a same-origin GET without Origin", async () => {
    expect((await send(h.port, { path: '/relay/api/targets', headers: { origin: h.origin } })).status).toBe(200);
    expect((await send(h.port, { path: '/relay/api/targets', headers: { origin: `http://localhost:${h.port}` } })).status).toBe(200);
    expect((await send(h.port, { path: '/relay/api/targets', headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    // Same scheme and host on another port is another origin.
    expect((await send(h.port, { path: '/relay/api/targets', headers: { origin: 'http://127.0.0.1:1' } })).status).toBe(403);
  });

  it('refuses a relay URL without a token with 403', async () => {
    for (const path of ['/relay', '/relay/', '/relay/demo']) {
      const r = await send(h.port, { method: 'POST', path, body: '{}' });
      expectRefusal(r, 403, /needs the token printed when the inspector started/);
    }
  });

  it('refuses a wrong token with 403 and does not echo either token', async () => {
    const wrong = 'wrong-token-aaaaaaaaaaaaaaaa';
    const r = await send(h.port, { method: 'POST', path: `/relay/${wrong}/demo`, body: '{}' });
    expectRefusal(r, 403, /wrong relay token/);
    expect(r.text).not.toContain(wrong);
  });

  it('refuses a non-loopback Host (DNS rebinding) on every path with 403', async () => {
    // The app's own pages and assets too (here `/` and `/sw.js`), not only the relay's paths.
    const paths = ['/relay/api/targets', `/relay/${TOKEN}/demo`, '/demo/mcp', '/relay/api/events', '/', '/sw.js'];
    for (const path of paths) {
      const r = await send(h.port, { path, headers: { host: `evil.example:${h.port}`, origin: h.origin } });
      expectRefusal(r, 403, /Host "evil\.example:\d+" is not this inspector.*DNS rebinding/);
    }
    // Our own names on another port are refused too.
    const r = await send(h.port, { path: '/relay/api/targets', headers: { host: 'localhost:1', origin: h.origin } });
    expectRefusal(r, 403, /is not this inspector/);
  });

  it('refuses a target the user did not add with 404, for external clients and the page forwarder', async () => {
    const ext = await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/unlisted`, body: '{}' });
    expect(expectRefusal(ext, 404, /Unknown target "unlisted": add it as a watched target/)).toMatch(/Known targets: demo, local/);
    const page = await send(h.port, { method: 'POST', path: '/relay/api/forward/unlisted', headers: { origin: h.origin }, body: '{}' });
    expectRefusal(page, 404, /Unknown target "unlisted"/);
  });

  it('checks the token before it says which targets exist', async () => {
    const r = await send(h.port, { method: 'POST', path: '/relay/wrong-token-aaaaaaaaaaaaaaaa/unlisted', body: '{}' });
    expectRefusal(r, 403, /wrong relay token/);
  });

  it('refuses a foreign Origin on the demo endpoint, and lets non-browser clients in', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const foreign = await send(h.port, { method: 'POST', path: '/demo/mcp', headers: { ...headers, origin: 'https://evil.example' }, body: init });
    expectRefusal(foreign, 403, /Origin "https:\/\/evil\.example" may not use this server/);
    const plain = await send(h.port, { method: 'POST', path: '/demo/mcp', headers, body: init });
    expect(plain.status).not.toBe(403);
  });

  it('rejects a malformed target list with 400 and says what is wrong', async () => {
    const r = await putTargets(h, [{ id: 'x', url: 'file:///etc/passwd' }]);
    expectRefusal(r, 400, /only http: and https: URLs can be relayed/);
    const bad = await putTargets(h, [{ id: 'has space', url: 'http://127.0.0.1:1/mcp' }]);
    expectRefusal(bad, 400, /id must be/);
  });
});
