// Issue 6 (security): a verification key typed into the page never leaves the analysis
// worker's memory unless "remember" is ticked, and never shows up in an export, a copy, a
// log, an error message, storage or a request; exports are sanitised by default. A random
// key is planted through the key form (with a wrong key and an unreadable one), every view,
// export and copy is exercised on traffic from a live server that signs its tokens with that
// key (captured live, and imported with planted Authorization, Cookie, X-API-Key and
// Set-Cookie values), then every place is searched. Each search is shown able to fail: the
// key is put in each place on purpose and the same search must find it there.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { createMcpHandler, createRequestStateCodec, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { exportHar } from '../../worker/capture/index.ts';
import { elicitResult } from '../../worker/console/form.ts';
import { createStepper } from '../../worker/console/stepper.ts';
import { fetchTransport } from '../../worker/console/transport.ts';
import { toolCall } from '../unit/console/servers.ts';
import { serveHandler } from '../peers/serve-demo.ts';
import { analysisWorker, expect, InspectorPage, LeakWatch, test as base } from './fixtures.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A random string of `n` letters and digits (no character any escaping would change). */
const random = (n: number) => [...randomBytes(n)].map((b) => ALNUM[b % ALNUM.length]).join('');

/** The spellings of a secret a leak could take: whole, a 12-character head or tail, base64, hex. */
function spellings(secret: string): string[] {
  return [secret, secret.slice(0, 12), secret.slice(-12), Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')];
}

/** A live MCP server whose tokens are signed with `key`, open to the page (CORS), and the capture of one call to it. */
interface Vault {
  url: string;
  key: string;
  /** A HAR of vault_open's two rounds, sent with the planted credentials. */
  har: string;
  /** The planted credential values (request headers, and the server's Set-Cookie). */
  credentials: string[];
  /** Every request the server received: method, URL, headers and body. */
  seen: string[];
}

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, GET, OPTIONS', 'access-control-expose-headers': '*' };

async function startVault(key: string, setCookie: string) {
  const codec = createRequestStateCodec<{ step: number }>({ key, ttlSeconds: 300 });
  const factory = () => {
    const server = new McpServer({ name: 'vault', version: '1.0.0' }, { requestState: { verify: codec.verify } });
    // Two rounds: the PIN (a form), then done. `busy` is what a watched target's "Call" sends.
    for (const name of ['vault_open', 'busy']) {
      server.registerTool(name, { description: 'asks for a PIN, then opens' }, async (ctx) => {
        if (!ctx.mcpReq.requestState()) {
          return inputRequired({
            inputRequests: { pin: inputRequired.elicit({ message: 'PIN?', requestedSchema: { type: 'object', properties: { pin: { type: 'string' } }, required: ['pin'] } }) },
            requestState: await codec.mint({ step: 1 }, ctx),
          });
        }
        return { content: [{ type: 'text' as const, text: 'The vault is open.' }] };
      });
    }
    return server;
  };
  const mcp = createMcpHandler(factory, { responseMode: 'json', keepAliveMs: 0 });
  const seen: string[] = [];
  const running = await serveHandler({
    async fetch(req) {
      const sent: string[] = [];
      req.headers.forEach((v, k) => sent.push(`${k}: ${v}`));
      seen.push(`${req.method} ${req.url}\n${sent.join('\n')}\n${await req.clone().text()}`);
      if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
      const res = await mcp.fetch(req);
      const headers = new Headers(res.headers);
      for (const [k, v] of Object.entries(CORS)) headers.set(k, v);
      headers.append('set-cookie', setCookie);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    },
    close: () => mcp.close(),
  });
  return { ...running, seen };
}

/** One vault_open call (two rounds) sent from Node with the planted credentials, as a HAR. */
async function recordCall(url: string, credentials: Record<string, string>): Promise<string> {
  const call = toolCall('vault_open');
  call.headers.push(...Object.entries(credentials).map(([name, value]) => ({ name, value })));
  const stepper = createStepper({ send: fetchTransport({ timeoutMs: 20_000 }) });
  await stepper.start({ url, request: call });
  stepper.answer('pin', elicitResult('accept', { pin: '0000' }));
  const done = await stepper.send();
  expect(done.status).toBe('complete');
  return exportHar(stepper.records(), { sanitize: false });
}

const test = base.extend<{ vault: Vault; watch: LeakWatch }>({
  vault: async ({}, use) => {
    const key = random(40);
    const planted = { Authorization: `Bearer ${random(32)}`, Cookie: `sid=${random(32)}`, 'X-API-Key': random(32) };
    const setCookie = `vault_session=${random(32)}; Path=/; HttpOnly`;
    const server = await startVault(key, setCookie);
    try {
      const har = await recordCall(server.url, planted);
      const credentials = [...Object.values(planted).map((v) => v.replace(/^(Bearer |sid=)/, '')), setCookie.split(/[=;]/)[1]];
      await use({ url: server.url, key, har, credentials, seen: server.seen });
    } finally {
      await server.close();
    }
  },
  // Attached before the page opens, so no message, request or download is missed.
  watch: async ({ page, baseURL }, use) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
    await use(new LeakWatch(page));
  },
});

/** Opens the state tab of round `round` of the first conversation named `name`. */
async function openToken(page: Page, inspector: InspectorPage, name: string, round = 0): Promise<void> {
  await inspector.conversationRow(name).click();
  await page.getByTestId('round').nth(round).getByRole('button').first().click();
  await page.getByTestId('tab-state').click();
  await expect(page.getByTestId('token').first()).toBeVisible();
}

/** Types a key into the key form and presses Verify, with "remember" as given. */
async function enterKey(page: Page, text: string, remember = false): Promise<void> {
  await page.getByTestId('key-input').fill(text);
  await page.getByTestId('key-remember').setChecked(remember);
  await page.getByTestId('key-save').click();
}

/**
 * Waits until a key the form took is saved through: the form empties its field only after
 * the views re-read (web/lib/transfer.svelte.ts setKey), a worker round trip after the
 * key's status line already changed. Searched before that, the key is still the field's
 * value, and the DOM counts as a place holding it.
 */
async function saved(page: Page): Promise<void> {
  await expect(page.getByTestId('key-input')).toHaveValue('');
}

/** Clicks an item of the toolbar's Export menu and waits for its download. */
async function exportItem(page: Page, watch: LeakWatch, item: string, opts: { filtered?: boolean; keep?: boolean } = {}): Promise<void> {
  const before = watch.downloads;
  await page.getByTestId('export').click();
  await (opts.filtered ? page.getByTestId('export-filtered') : page.getByRole('radio', { name: 'Whole session' })).check();
  if (item !== 'export-sarif') await page.getByTestId('keep-secrets').setChecked(opts.keep ?? false);
  await page.getByTestId(item).click();
  await expect.poll(() => watch.downloads, { message: `no download from ${item}` }).toBe(before + 1);
}

test('a key entered without "remember", a wrong key and an unreadable one leave no trace in any output, store, log or request', async ({ page, watch, vault }) => {
  test.setTimeout(300_000);
  const inspector = new InspectorPage(page);
  await inspector.open();
  // Each console the search reads (the page's, the analysis worker's, the service worker's)
  // gets one line now, so the coverage check below shows each was heard from the start: the
  // app logs nothing when all goes well (only `vite dev` logs its own lines).
  await page.evaluate(() => console.log('leak watch: the page console'));
  await (await analysisWorker(page)).evaluate(() => console.log('leak watch: the analysis worker console'));
  await page.context().serviceWorkers()[0].evaluate(() => console.log('leak watch: the service worker console'));
  const live = await page.getByTestId('session-picker').inputValue();
  // Live traffic: the page calls the vault as a watched target, and the service worker captures it.
  await inspector.watch(vault.url);
  await inspector.callTarget(vault.url);
  await inspector.waitForStored((r) => r.request.url === vault.url && r.state === 'complete', 'the tapped call to the vault');
  // Recorded traffic with credentials, imported.
  await inspector.importFile({ name: 'vault.har', text: vault.har });

  // The key form: an unreadable key, a wrong key, then the server's key. None remembered.
  await openToken(page, inspector, 'vault_open');
  const token = page.getByTestId('token').first();
  const unreadable = `hex:${random(40)}`;
  await enterKey(page, unreadable);
  await expect(page.getByTestId('key-form').getByRole('alert')).toContainText('not a hex digit');
  // The message names no part of the key (the field still holds what was typed: emptied first).
  await page.getByTestId('key-input').fill('');
  expect(await watch.find(spellings(unreadable.slice(4)))).toEqual([]);
  const wrong = random(40);
  await enterKey(page, wrong);
  await expect(token).toHaveAttribute('data-verified', 'false');
  await expect(token.getByTestId('token-verification')).toContainText('MAC does not match');
  await enterKey(page, vault.key);
  await expect(token).toHaveAttribute('data-verified', 'true');
  await expect(page.getByTestId('key-form')).toContainText('set for this visit');
  // The status changes as soon as the worker holds the key; the typed text leaves the box a moment later.
  await expect(page.getByTestId('key-input')).toHaveValue('');
  // Saved: the field is emptied and nothing on screen or in storage shows any of the three.
  const keys = [vault.key, wrong, unreadable.slice(4)].flatMap(spellings);
  expect(await watch.find(keys)).toEqual([]);

  // Every detail tab, and each round copied as cURL and as fetch (to the clipboard).
  for (const tab of ['headers', 'request', 'response', 'findings', 'timing', 'state']) {
    await page.getByTestId(`tab-${tab}`).click();
    await expect(page.getByTestId('tabpanel')).toHaveAttribute('data-tab', tab);
  }
  for (const round of [0, 1]) {
    await page.getByTestId('round').nth(round).getByRole('button').first().click();
    for (const [kind, shape] of [['curl', "curl '"], ['fetch', 'fetch(']] as const) {
      await page.getByTestId(`copy-${kind}`).click();
      await expect(page.getByTestId('copied-text')).toContainText(shape);
      await expect.poll(() => watch.noteClipboard()).toContain(shape);
    }
  }

  // Every export: the session and the filtered view, as HAR, JSONL and SARIF.
  for (const item of ['export-har', 'export-jsonl', 'export-sarif']) await exportItem(page, watch, item);
  await page.getByTestId('filter').fill('has:state');
  await expect(page.locator('[data-testid="conversation"]')).toHaveCount(1);
  for (const item of ['export-har', 'export-jsonl', 'export-sarif']) await exportItem(page, watch, item, { filtered: true });
  await page.getByTestId('filter').fill('');

  // The Console: tamper tests on the captured round, with both report exports; a replay.
  await page.getByTestId('round').nth(0).getByRole('button').first().click();
  await page.getByTestId('thread-tamper').click();
  await page.getByTestId('tamper-run-all').click();
  await expect(page.getByTestId('tamper-summary')).toBeVisible({ timeout: 60_000 });
  for (const item of ['tamper-export-json', 'tamper-export-md']) {
    const before = watch.downloads;
    await page.getByTestId(item).click();
    await expect.poll(() => watch.downloads).toBe(before + 1);
  }
  await page.getByTestId('console-tab-replay').click();
  await page.getByTestId('replay-target').fill(vault.url);
  await page.getByTestId('replay-run').click();
  await expect(page.getByTestId('replay-summary')).toContainText('1 same', { timeout: 60_000 });

  // The live capture: the same server, so the same key verifies its token; exported too.
  await page.getByTestId('session-picker').selectOption(live);
  await openToken(page, inspector, 'busy');
  await expect(page.getByTestId('token').first()).toHaveAttribute('data-verified', 'true');
  await exportItem(page, watch, 'export-har');

  // The search. Keys: nowhere at all, including the vault server's own log of requests.
  for (const s of vault.seen) watch.note('vault server', s);
  expect(await watch.find(keys)).toEqual([]);
  // Credentials: in no download, copy, log or error (the stores hold the capture as captured).
  const outputs = (places: string[]) => places.filter((p) => /^(download|clipboard|console|page error)/.test(p));
  expect(outputs(await watch.find(vault.credentials, { keptToo: false }))).toEqual([]);
  // The search covered every store of the app's database, the page's other stores, and 9 downloads.
  const places = await watch.places();
  for (const store of ['exchanges', 'sessions', 'targets', 'settings']) expect(places).toContain(`indexeddb mrtr-inspector/${store}`);
  expect(places).toEqual(expect.arrayContaining(['DOM', 'localStorage', 'sessionStorage', 'cookies', 'clipboard', 'request', 'request of the service worker', 'console', 'vault server']));
  expect(places.filter((p) => p.startsWith('console of '))).toHaveLength(2);
  expect(places.filter((p) => p.startsWith('download'))).toHaveLength(9);

  // Positive controls: the same search finds the key wherever it is put on purpose.
  const K = vault.key;
  await page.evaluate((k) => console.log(k), K);
  await page.workers()[0].evaluate((k) => console.log(k), K);
  await page.context().serviceWorkers()[0].evaluate((k) => console.log(k), K);
  await page.evaluate((k) => void setTimeout(() => { throw new Error(k); }), K);
  // A request to the watched server: sent by the page, and again by the service worker that taps it.
  const probe = JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping', params: { probe: K } });
  await page.evaluate(async ({ url, body }) => void (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })), { url: vault.url, body: probe });
  await page.evaluate(async (k) => {
    localStorage.setItem('probe', k);
    sessionStorage.setItem('probe', k);
    document.cookie = `probe=${k}`;
    await (await caches.open('probe')).put('/probe', new Response(k));
    await navigator.clipboard.writeText(k);
  }, K);
  await watch.noteClipboard();
  for (const s of vault.seen) watch.note('vault server', s);
  // A capture in which the server printed its own key: sanitised exports redact it (it is a
  // configured key); the explicit "keep secrets" export keeps it, and so does the store.
  const leaky = vault.har.replace('The vault is open.', `The vault key is ${K}.`);
  await inspector.importFile({ name: 'leaky', text: leaky });
  await exportItem(page, watch, 'export-har');
  await exportItem(page, watch, 'export-har', { keep: true });
  await openToken(page, inspector, 'vault_open');
  await page.getByTestId('key-input').fill(K);
  const found = await watch.find([K]);
  expect(found).toEqual(expect.arrayContaining([
    'console', 'page error', 'request', 'request of the service worker', 'vault server', 'clipboard', 'DOM', 'localStorage', 'sessionStorage', 'document.cookie', 'cookies',
    'cache probe', 'indexeddb mrtr-inspector/exchanges', 'download 11: leaky.har',
  ]));
  // The analysis worker's console and the service worker's.
  expect(found.filter((p) => p.startsWith('console of '))).toHaveLength(2);
  expect(found).not.toContain('download 10: leaky.har');
  // The planted credentials (the leaky capture has them too): only the export that keeps secrets has them.
  expect(outputs(await watch.find(vault.credentials, { keptToo: false }))).toEqual(['download 11: leaky.har']);
});

test('"remember" writes the key to IndexedDB settings and nowhere else; un-remembering and forgetting remove it', async ({ page, watch, vault }) => {
  test.setTimeout(180_000);
  const inspector = new InspectorPage(page);
  await inspector.open();
  await inspector.importFile({ name: 'vault.har', text: vault.har });
  const imported = await page.getByTestId('session-picker').inputValue();
  await openToken(page, inspector, 'vault_open');
  await enterKey(page, vault.key, true);
  await saved(page);
  await expect(page.getByTestId('token').first()).toHaveAttribute('data-verified', 'true');
  await expect(page.getByTestId('key-form')).toContainText('set and remembered');
  // The status changes as soon as the worker holds the key; the typed text leaves the box a moment later.
  await expect(page.getByTestId('key-input')).toHaveValue('');
  expect(await watch.find(spellings(vault.key))).toEqual(['indexeddb mrtr-inspector/settings']);

  // A new visit reads it back: the token verifies without typing the key again.
  await page.reload();
  await inspector.waitUntilCapturing();
  await page.getByTestId('session-picker').selectOption(imported);
  await openToken(page, inspector, 'vault_open');
  await expect(page.getByTestId('token').first()).toHaveAttribute('data-verified', 'true');

  // Entered again without "remember": kept for this visit only, gone from storage.
  await enterKey(page, vault.key, false);
  await saved(page);
  await expect(page.getByTestId('key-form')).toContainText('set for this visit');
  // The status changes as soon as the worker holds the key; the typed text leaves the box a moment later.
  await expect(page.getByTestId('key-input')).toHaveValue('');
  await expect(page.getByTestId('token').first()).toHaveAttribute('data-verified', 'true');
  expect(await watch.find(spellings(vault.key))).toEqual([]);

  // Remembered again, then forgotten: gone from memory and storage.
  await enterKey(page, vault.key, true);
  await saved(page);
  await expect(page.getByTestId('key-form')).toContainText('set and remembered');
  // The status changes as soon as the worker holds the key; the typed text leaves the box a moment later.
  await expect(page.getByTestId('key-input')).toHaveValue('');
  expect(await watch.find(spellings(vault.key))).toEqual(['indexeddb mrtr-inspector/settings']);
  await page.getByTestId('key-clear').click();
  await expect(page.getByTestId('token').first()).toHaveAttribute('data-verified', 'null');
  await expect(page.getByTestId('key-form')).toContainText('none');
  expect(await watch.find(spellings(vault.key))).toEqual([]);
});
