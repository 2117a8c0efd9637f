// The page API trusted headers any local program can send (Origin, Sec-Fetch-Site): another
// local user read the token from /relay/api/info and drained the backlog. Now it also wants
// the per-start secret the relay hands the page in an HttpOnly, SameSite=Strict cookie on
// the page's own load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPage, send, startRelay, TOKEN, type RelayHarness } from './relay-harness.js';

describe("the page API's per-start secret", () => {
  let h: RelayHarness;
  beforeAll(async () => {
    h = await startRelay();
  });
  afterAll(async () => {
    await h.close();
  });

  it('is handed out on the page load as an HttpOnly, SameSite=Strict cookie named for the port', async () => {
    const r = await send(h.port, { path: '/', headers: { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none' } });
    const [cookie] = r.headers['set-cookie'] ?? [];
    expect(cookie).toMatch(new RegExp(`^mrtr-page-${h.port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`));
    // Not on fetches, scripts or relay answers.
    expect((await send(h.port, { path: '/main.ts', headers: { 'sec-fetch-dest': 'script', 'sec-fetch-mode': 'cors' } })).headers['set-cookie']).toBeUndefined();
    expect((await send(h.port, { path: '/relay/api/info', headers: { origin: h.origin } })).headers['set-cookie']).toBeUndefined();
  });

  it('refuses forged Origin and Sec-Fetch-Site headers without the cookie, on every page-API call', async () => {
    const forged = { origin: h.origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', cookie: '' };
    for (const [method, path] of [['GET', '/relay/api/info'], ['GET', '/relay/api/targets'], ['PUT', '/relay/api/targets'], ['GET', '/relay/api/events'], ['POST', '/relay/api/backlog'], ['POST', '/relay/api/backlog/ack'], ['POST', '/relay/api/forward/demo']] as const) {
      const r = await send(h.port, { method, path, headers: forged, body: method === 'GET' ? undefined : '[]' });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json().error).toMatch(/no page cookie/);
      expect(r.text).not.toContain(TOKEN);
    }
    const wrong = await send(h.port, { path: '/relay/api/info', headers: { ...forged, cookie: `mrtr-page-${h.port}=${'A'.repeat(43)}` } });
    expect(wrong.status).toBe(403);
    expect(wrong.json().error).toMatch(/stale page cookie/);
    // Another port's cookie is not ours.
    const other = await send(h.port, { path: '/relay/api/info', headers: { ...forged, cookie: (await loadPage(h.port)).replace(`mrtr-page-${h.port}`, 'mrtr-page-1') } });
    expect(other.status).toBe(403);
  });

  it('answers the page that holds the cookie', async () => {
    const cookie = await loadPage(h.port);
    const info = await send(h.port, { path: '/relay/api/info', headers: { origin: h.origin, cookie } });
    expect(info.status).toBe(200);
    expect(info.text).toContain(TOKEN);
  });
});
