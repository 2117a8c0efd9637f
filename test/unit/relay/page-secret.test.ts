// The page API trusted headers any local program can send (Origin, Sec-Fetch-Site): another
// local user read the token from /relay/api/info and drained the backlog. It also wants the
// per-start secret the relay hands the page in an HttpOnly, SameSite=Strict cookie, and that
// cookie once went to anything that imitated a navigation's headers; now only the link
// printed at start (its one-time-printed token) earns it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPage, PAGE_TOKEN, send, startRelay, TOKEN, type RelayHarness } from './relay-harness.js';

describe("the page API's per-start secret", () => {
  let h: RelayHarness;
  beforeAll(async () => {
    h = await startRelay();
  });
  afterAll(async () => {
    await h.close();
  });

  it('is never handed out for a forged browser navigation: the page says to open the link from the terminal', async () => {
    const forged = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none', 'sec-fetch-user': '?1', 'upgrade-insecure-requests': '1' };
    for (const path of ['/', '/index.html', '/?x=1']) {
      const r = await send(h.port, { path, headers: forged });
      expect(r.headers['set-cookie'], path).toBeUndefined();
      expect(r.status, path).toBe(403);
      expect(r.text).toContain('Open the link printed in your terminal');
      expect(r.text).toContain(`${h.origin}/?token=…`);
      expect(r.text).not.toContain(PAGE_TOKEN);
      expect(r.text).not.toContain(TOKEN);
    }
    // Nor on fetches, scripts or relay answers.
    expect((await send(h.port, { path: '/main.ts', headers: { 'sec-fetch-dest': 'script', 'sec-fetch-mode': 'cors' } })).headers['set-cookie']).toBeUndefined();
    expect((await send(h.port, { path: '/relay/api/info', headers: { origin: h.origin } })).headers['set-cookie']).toBeUndefined();
  });

  it('is handed out, HttpOnly and SameSite=Strict and named for the port, for the link printed at start, which then leads to the clean URL', async () => {
    const r = await send(h.port, { path: `/?view=list&token=${PAGE_TOKEN}` });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/?view=list');
    const [cookie] = r.headers['set-cookie'] ?? [];
    expect(cookie).toMatch(new RegExp(`^mrtr-page-${h.port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`));
    // The browser's next load (the redirect, a reload, a second tab) is the app itself.
    const reload = await send(h.port, { path: '/', headers: { cookie: cookie.split(';')[0] } });
    expect(reload.text).toBe('not the relay');
  });

  it('is not handed out for a wrong or stale token', async () => {
    const r = await send(h.port, { path: `/?token=${'A'.repeat(32)}` });
    expect(r.status).toBe(403);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(r.text).toContain("This link's token is not this inspector's");
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
