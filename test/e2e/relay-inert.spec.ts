// Relayed content never runs on the inspector's origin, checked with real browser loads: a
// hostile target whose answer is HTML with inline script (and a script it serves itself) is
// navigated to through the relay, framed from the inspector page, and loaded as a script;
// each load is refused before the target is asked, and nothing of the target runs. A page
// of another local origin cannot read the inspector's files either (the server sends no
// CORS headers; in `vite dev` Vite's CORS is off, test/unit/relay/vite-plugin.test.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures.ts';

const HOSTILE = '<!doctype html><title>hostile</title><script>window.__ran = true; fetch("/relay/api/info").then(r => r.text()).then(t => navigator.sendBeacon("/beacon", t))</script><script src="?js=1"></script>';

async function hostileTarget(): Promise<{ origin: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.url?.includes('js=1')) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.__ran = true;');
    // Its own CSP would allow its inline script, were it passed through.
    res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "script-src 'unsafe-inline' 'self'", 'set-cookie': 'planted=1; Path=/' }).end(HOSTILE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

test('a browser navigation, frame or script load of a relay URL is refused and runs nothing of the target', async ({ inspector: _, page, relay }) => {
  const evil = await hostileTarget();
  try {
    // The page registers the target the way it always does (a same-origin fetch).
    const put = await page.evaluate(async (url) => (await fetch('/relay/api/targets', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ id: 'evil', url }]) })).status, `${evil.origin}/mcp`);
    expect(put).toBe(200);
    // A fetch (what MCP clients in a browser do) still reaches the target.
    const fetched = await page.evaluate(async (url) => { const r = await fetch(url, { method: 'POST', body: '{}' }); return { status: r.status, csp: r.headers.get('content-security-policy') }; }, relay.url('evil'));
    expect(fetched.status).toBe(200);
    expect(evil.seen).toHaveLength(1);
    const asked = evil.seen.length;

    // From the inspector page: a frame and a script of the relay URL.
    const inPage = await page.evaluate(async (url) => {
      const frame = document.createElement('iframe');
      frame.src = url;
      const framed = new Promise((r) => frame.addEventListener('load', r));
      document.body.append(frame);
      await framed;
      const script = document.createElement('script');
      script.src = `${url}?js=1`;
      const loaded = await new Promise((r) => { script.onload = () => r('loaded'); script.onerror = () => r('error'); document.body.append(script); });
      frame.remove();
      return { script: loaded, ran: (window as unknown as { __ran?: boolean }).__ran === true };
    }, relay.url('evil'));
    expect(inPage).toEqual({ script: 'error', ran: false });

    // A top-level navigation, as a link or "Open URL" would make.
    const response = await page.goto(relay.url('evil'));
    expect(response?.status()).toBe(403);
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran === true)).toBe(false);
    await expect(page.locator('body')).toContainText('fetch requests only');
    // Same for the page API, which a same-origin navigation would otherwise pass.
    expect((await page.goto('/relay/api/info'))?.status()).toBe(403);
    expect(evil.seen.length).toBe(asked);
    expect((await page.context().cookies()).some((c) => c.name === 'planted')).toBe(false);
  } finally {
    await evil.close();
  }
});

test("a page of another local origin cannot read the inspector's files", async ({ page, baseURL }) => {
  // The page, its entry script (whatever the build named it) and the service worker: each
  // a file the server does serve, so a refusal is CORS's and not a 404's.
  const html = await (await page.request.get('/')).text();
  const src = [...html.matchAll(/<script type="module"[^>]* src="([^"]+)"/g)].at(-1)?.[1];
  expect(src, 'the entry script named in index.html').toBeTruthy();
  const paths = ['/', new URL(src!, baseURL).pathname, '/sw.js'];
  for (const path of paths) expect((await page.request.get(path)).status(), `same-origin GET ${path}`).toBe(200);
  const other = await hostileTarget();
  try {
    await page.goto(`${other.origin}/`);
    const outcome = await page.evaluate(async ({ base, paths }) => {
      const out: string[] = [];
      for (const path of paths) {
        try {
          await (await fetch(base + path)).text();
          out.push(`read ${path}`);
        } catch {
          out.push(`blocked ${path}`);
        }
      }
      return out;
    }, { base: baseURL!, paths });
    expect(outcome).toEqual(paths.map((p) => `blocked ${p}`));
  } finally {
    await other.close();
  }
});
