// The one fixtures file for browser tests. Import `test` and `expect` from here:
//   server     this worker's production server (worker-scoped): its origin, and its relay's
//              token and capture file. Workers run files at once, each against a server of
//              its own (playwright.config.ts), so `baseURL` is this server's, never a constant.
//   mcpServer  a local MCP-like server (test-server.ts), stopped after the test
//   inspector  the app opened at `/`, capturing, with helpers to drive and inspect it
//   context    signed in: it opened the link printed at start (the page token), so it holds the page cookie
//   relay      the relay of this worker's server (`relay.token`, `relay.jsonl`: what specs
//              once imported as RELAY_TOKEN and RELAY_JSONL from the config), and the
//              official SDK v2 client run against it as a separate Node process
//   sendPrompts the hosts the Console asked "Send to …?" about (accepted unless sendPromptAnswer is 'dismiss')
// Every fixture stops what it started. Waits are on conditions, never on the clock.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Browser, type BrowserContext, type CDPSession, type Page, type Worker } from '@playwright/test';
import { generateCapture } from '../bench/generate-capture.ts';
import { readJsonl } from '../../worker/capture/jsonl.ts';
import { PROTOCOL_VERSION, type ExchangeRecord } from '../../worker/protocol.ts';
import { PAGE_TOKEN, serverUnderTest, type ServerUnderTest } from './playwright.config.ts';
import { startTestMcpServer, type TestMcpServer } from './test-server.ts';

export { expect };
export type { TestMcpServer };

/** The database and store the storage module writes (worker/storage/schema.ts). */
const DB_NAME = 'mrtr-inspector';

/** What a page-side streaming fetch has seen so far (see `startStream`). */
export interface PageStream {
  status: number | null;
  events: string[];
  done: boolean;
  error: string | null;
}

export class InspectorPage {
  constructor(readonly page: Page) {}

  /** Opens the app and waits until the service worker controls it and the handshake passed. */
  async open(): Promise<void> {
    await this.page.goto('/');
    await this.waitUntilCapturing();
  }

  async waitUntilCapturing(): Promise<void> {
    await expect(this.page.getByTestId('sw-status')).toHaveAttribute('data-status', 'capturing', { timeout: 45_000 });
  }

  /** Imports a capture file through the toolbar's picker and waits until its session is shown. */
  async importFile(file: string | { name: string; text: string }): Promise<void> {
    const before = await this.page.getByTestId('session-picker').inputValue();
    const files = typeof file === 'string' ? file : { name: file.name, mimeType: 'application/json', buffer: Buffer.from(file.text) };
    await this.page.getByTestId('import-file').setInputFiles(files);
    await expect(this.page.getByTestId('session-picker')).not.toHaveValue(before, { timeout: 45_000 });
    await expect(this.page.getByTestId('count-conversations')).toBeVisible();
  }

  /** Imports a generated capture of `exchanges` exchanges (test/bench/generate-capture.ts),
   *  written to a folder of its own that goes once imported. */
  async importGenerated(exchanges: number): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-generated-'));
    try {
      const file = join(dir, `generated-${exchanges}.har`);
      await generateCapture(file, exchanges);
      await this.importFile(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The row of the conversation list with this method and name. */
  conversationRow(name: string, nth = 0) {
    return this.page.locator('[data-testid="conversation"]').filter({ hasText: name }).nth(nth);
  }

  /** Every stored exchange of one capture session, in seq order. */
  async sessionExchanges(session: string): Promise<ExchangeRecord[]> {
    return (await this.storedExchanges()).filter((r) => r.session === session).sort((a, b) => a.seq - b.seq);
  }

  /**
   * Chooses the demo tool the toolbar's "Call" sends. The menu lists the demo's tools with
   * one tools/list the first time it opens; this returns once that exchange is stored.
   */
  async chooseDemoTool(name: string): Promise<void> {
    await this.page.getByTestId('demo-tool-menu').click();
    await this.page.locator(`[data-testid="demo-tool"][data-name="${name}"]`).click();
    await expect(this.page.getByTestId('call-demo')).toHaveAttribute('data-tool', name);
    await this.waitForStored((r) => (r.request.body ?? '').includes('"tools/list"') && r.state === 'complete', 'the demo tools/list');
  }

  /** Adds a watched endpoint through the UI; resolves once the service worker re-read it. */
  async watch(url: string): Promise<void> {
    await this.page.getByTestId('target-url').fill(url);
    await this.page.getByTestId('add-target').click();
    await expect(this.page.locator(`[data-testid="target"][data-url="${new URL(url).href}"]`)).toBeVisible();
    await expect(this.page.getByTestId('target-url')).toHaveValue('');
  }

  /** Clicks "Call" on a watched endpoint (a 2026-07-28 tools/call sent by the page). */
  async callTarget(url: string): Promise<void> {
    await this.page.locator(`[data-testid="target"][data-url="${new URL(url).href}"]`).getByTestId('call-target').click();
  }

  /** Every exchange record in IndexedDB, read directly (what survives a reload): those
   *  stored a value each and those in chunks (worker/storage/chunks.ts). */
  storedExchanges(): Promise<ExchangeRecord[]> {
    return this.page.evaluate(
      (name) =>
        new Promise<ExchangeRecord[]>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('exchanges')) {
              db.close();
              resolve([]);
              return;
            }
            const chunked = db.objectStoreNames.contains('chunks');
            const tx = db.transaction(chunked ? ['exchanges', 'chunks'] : ['exchanges']);
            const singles = tx.objectStore('exchanges').getAll();
            const chunks = chunked ? tx.objectStore('chunks').getAll() : null;
            tx.oncomplete = () => {
              db.close();
              const inChunks = ((chunks?.result ?? []) as { records: ExchangeRecord[] }[]).flatMap((c) => c.records);
              resolve([...(singles.result as ExchangeRecord[]), ...inChunks]);
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      DB_NAME,
    );
  }

  /** Waits until IndexedDB holds an exchange matching `pred`, and returns it. */
  async waitForStored(pred: (r: ExchangeRecord) => boolean, what: string): Promise<ExchangeRecord> {
    let found: ExchangeRecord | undefined;
    await expect
      .poll(async () => {
        found = (await this.storedExchanges()).find(pred);
        return found !== undefined;
      }, { message: `IndexedDB never held ${what}`, timeout: 30_000 })
      .toBe(true);
    return found!;
  }

  /** A plain fetch from the page (so the service worker sees it); returns status and text. */
  fetchInPage(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; text: string } | { error: string }> {
    return this.page.evaluate(async ({ url, init }) => {
      try {
        const res = await fetch(url, init);
        return { status: res.status, text: await res.text() };
      } catch (err) {
        return { error: String(err) };
      }
    }, { url, init });
  }

  /**
   * Starts a POST whose event-stream answer the page reads chunk by chunk; `key` names it
   * for `readStream` and `abortStream`. Events are split on blank lines (enough for tests).
   */
  async startStream(key: string, url: string, body: string): Promise<void> {
    await this.page.evaluate(({ key, url, body }) => {
      const w = window as unknown as { __streams?: Record<string, { state: PageStream; abort: AbortController }> };
      const state: PageStream = { status: null, events: [], done: false, error: null };
      const abort = new AbortController();
      (w.__streams ??= {})[key] = { state, abort };
      void (async () => {
        try {
          const res = await fetch(url, {
            method: 'POST', body, signal: abort.signal,
            headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          });
          state.status = res.status;
          const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
          let buf = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += value;
            const parts = buf.split('\n\n');
            buf = parts.pop() ?? '';
            state.events.push(...parts);
          }
          state.done = true;
        } catch (err) {
          state.error = String(err);
        }
      })();
    }, { key, url, body });
  }

  readStream(key: string): Promise<PageStream> {
    return this.page.evaluate((key) => (window as unknown as { __streams: Record<string, { state: PageStream }> }).__streams[key].state, key);
  }

  async abortStream(key: string): Promise<void> {
    await this.page.evaluate((key) => (window as unknown as { __streams: Record<string, { abort: AbortController }> }).__streams[key].abort.abort(), key);
  }

  /**
   * Stops the running capture service worker through the DevTools protocol, as the browser
   * does to idle workers, and waits until it is stopped.
   */
  async stopServiceWorker(): Promise<void> {
    const cdp: CDPSession = await this.page.context().newCDPSession(this.page);
    const versions = new Map<string, { runningStatus: string; scriptURL: string }>();
    cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
      for (const v of e.versions) versions.set(v.versionId, { runningStatus: v.runningStatus, scriptURL: v.scriptURL });
    });
    try {
      await cdp.send('ServiceWorker.enable');
      const running = () => [...versions].find(([, v]) => v.scriptURL.endsWith('/sw.js') && v.runningStatus === 'running')?.[0];
      await expect.poll(running, { message: 'no running capture service worker to stop' }).toBeTruthy();
      const versionId = running()!;
      // A stop that lands while the worker is between events can be dropped by the browser;
      // asked again on each poll until the worker reports stopped.
      await expect.poll(async () => {
        const status = versions.get(versionId)?.runningStatus;
        if (status === 'running') await cdp.send('ServiceWorker.stopWorker', { versionId }).catch(() => undefined);
        return status;
      }, { message: 'service worker did not stop', intervals: [250, 1000, 2000] }).toBe('stopped');
    } finally {
      await cdp.send('ServiceWorker.disable').catch(() => undefined);
      await cdp.detach().catch(() => undefined);
    }
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RELAY_PEER = fileURLToPath(new URL('../peers/relay-client.ts', import.meta.url));

/** How one run of the SDK client ended. */
export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The relay of the web server under test. `runClient` starts the official SDK v2 client
 * (test/peers/relay-client.ts, the demo's three-round wizard) as its own Node process; the
 * fixture kills any client still running when the test ends, pass or fail.
 */
export class RelayUnderTest {
  readonly #children = new Set<ChildProcess>();
  /** `token` and `jsonl`: the relay's token and capture file (the server's environment). */
  constructor(readonly baseURL: string, readonly token: string, readonly jsonl: string) {}

  /** The URL an external client uses for `target`. */
  url(target: string): string {
    return `${this.baseURL}/relay/${this.token}/${encodeURIComponent(target)}`;
  }

  /** The capture file's text now ('' when absent). */
  async captureText(): Promise<string> {
    return readFile(this.jsonl, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    });
  }

  /** The records in the capture file now, last line per id winning (the page's reading). */
  async captureRecords(): Promise<ExchangeRecord[]> {
    return readJsonl(await this.captureText()).exchanges;
  }

  /** Runs the SDK client (`tsx test/peers/relay-client.ts <url>`) to its exit. */
  runClient(target = 'demo', timeoutMs = 60_000): Promise<ClientRun> {
    return new Promise((resolve, reject) => {
      // `node --import tsx` rather than the tsx CLI: one process, so killing it by id
      // leaves no grandchild behind.
      const child = spawn(process.execPath, ['--import', 'tsx', RELAY_PEER, this.url(target)], {
        cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.#children.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (c: Buffer) => (stdout += c));
      child.stderr!.on('data', (c: Buffer) => (stderr += c));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', (err) => {
        clearTimeout(timer);
        this.#children.delete(child);
        reject(err);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        this.#children.delete(child);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Kills every client this fixture started that is still running. */
  stopAll(): void {
    for (const child of this.#children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    this.#children.clear();
  }
}

/** What the inspector's relay feed fetched from the backlog, as seen by `watchRelayFeed`. */
export interface RelayFeedWatch {
  /** Resolves with the body of the next backlog drain the page completes. */
  connected: Promise<string>;
  /** Every backlog body the page has received since the watch began. */
  drained(): Promise<string[]>;
}

// One route per page hands each backlog body to the watches of that page. The feed runs in
// the analysis worker, whose responses the page's `response` event reports but whose bodies
// it cannot always read back; a route fetches the body itself and fulfils with it.
// `gates` are awaited before a drain is answered (see failRelayStorage).
interface BacklogWatch { listeners: ((body: string) => void)[]; gates: (() => Promise<unknown>)[]; routed: Promise<unknown> }
const backlogWatchers = new WeakMap<Page, BacklogWatch>();
function backlogListeners(page: Page): BacklogWatch {
  let w = backlogWatchers.get(page);
  if (!w) {
    const listeners: ((body: string) => void)[] = [];
    const gates: (() => Promise<unknown>)[] = [];
    const routed = page.route((url) => url.pathname === '/relay/api/backlog', async (route) => {
      try {
        for (const g of gates) await g();
        const res = await route.fetch();
        const body = await res.text();
        if (res.ok()) for (const l of listeners) l(body);
        await route.fulfill({ response: res, body });
      } catch {
        await route.abort().catch(() => undefined); // the page or the relay went away meanwhile
      }
    });
    backlogWatchers.set(page, (w = { listeners, gates, routed }));
  }
  return w;
}

/**
 * Watches the inspector's relay feed (worker/capture/relay-feed.ts, in the page's analysis
 * worker). The feed drains the backlog only after its event stream is open, so once
 * `connected` resolves the relay pushes to this page instead of filing. Start the watch
 * before the page loads (or reloads), and await `ready` before that load.
 */
export function watchRelayFeed(page: Page): RelayFeedWatch & { ready: Promise<unknown> } {
  const w = backlogListeners(page);
  const bodies: string[] = [];
  let first!: (body: string) => void;
  const connected = new Promise<string>((resolve) => (first = resolve));
  w.listeners.push((body) => {
    bodies.push(body);
    first(body);
  });
  return { connected, ready: w.routed, drained: async () => [...bodies] };
}

/**
 * Lets a browser context in as the developer's browser is: by opening the link printed at
 * start, which trades the page token for the HttpOnly page cookie (the context's request
 * shares its cookie jar). Every server the tests start takes PAGE_TOKEN in its env or options.
 */
export async function signIn(context: BrowserContext, origin: string): Promise<void> {
  const r = await context.request.get(`${origin}/?token=${PAGE_TOKEN}`, { maxRedirects: 0 });
  if (r.status() !== 303) throw new Error(`signing in at ${origin} answered ${r.status()}, not the 303 of a good page token`);
}

export { PAGE_TOKEN };

/** The question the Console asks before its first send to a host (web/lib/send-consent.ts). */
export const SEND_PROMPT = /^Send to (\S+)\?/;

export const test = base.extend<{ mcpServer: TestMcpServer; inspector: InspectorPage; relay: RelayUnderTest; sendPrompts: string[]; sendPromptAnswer: 'accept' | 'dismiss' }, { server: ServerUnderTest }>({
  server: [async ({}, use, workerInfo) => use(serverUnderTest(workerInfo.parallelIndex)), { scope: 'worker' }],
  baseURL: async ({ server }, use) => use(server.origin),
  // How the tests answer the Console's "Send to <host>?": accepted, as the user who typed
  // the URL or chose the re-send would; a spec about the prompt itself dismisses it.
  sendPromptAnswer: ['accept', { option: true }],
  context: async ({ context, baseURL }, use) => {
    if (baseURL) await signIn(context, baseURL);
    await use(context);
  },
  // The hosts the Console asked about in this test, in order. Any other dialog is answered
  // as Playwright does when nothing listens: beforeunload accepted (the page leaves), the
  // rest dismissed.
  sendPrompts: [async ({ context, sendPromptAnswer }, use) => {
    const asked: string[] = [];
    context.on('dialog', (d) => {
      const host = d.type() === 'confirm' ? SEND_PROMPT.exec(d.message())?.[1] : undefined;
      if (host === undefined) return void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()).catch(() => undefined);
      asked.push(host);
      void (sendPromptAnswer === 'accept' ? d.accept() : d.dismiss()).catch(() => undefined);
    });
    await use(asked);
  }, { auto: true }],
  mcpServer: async ({}, use) => {
    const server = await startTestMcpServer();
    try {
      await use(server);
    } finally {
      await server.stop();
    }
  },
  inspector: async ({ page }, use) => {
    const inspector = new InspectorPage(page);
    await inspector.open();
    await use(inspector);
  },
  relay: async ({ baseURL, server }, use) => {
    const relay = new RelayUnderTest(baseURL!, server.relayToken, server.relayJsonl);
    try {
      await use(relay);
    } finally {
      relay.stopAll();
    }
  },
});

/** A running server for the Console tests, stopped after the test. */
export interface ConsoleServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Console fixtures: `changedDemo` is the embedded demo whose final texts changed (a server
 * that regressed, for replay diffs), on 127.0.0.1 at a random port; it sends no CORS
 * headers, so the page reaches it through the relay.
 */
export const consoleTest = test.extend<{ changedDemo: ConsoleServer }>({
  changedDemo: async ({}, use) => {
    const { serveChangedDemo } = await import('../unit/console/servers.ts');
    const server = await serveChangedDemo();
    try {
      await use(server);
    } finally {
      await server.close();
    }
  },
});

// ---------------------------------------------------------------------------------------
// sdkPeers: an official SDK v2 server (test/peers/sdk-trip-server.ts, tool `plan_trip`) run
// as its own Node process on 127.0.0.1 at a free port. `start({ cors: true })` sends CORS
// headers for the inspector's origin; `cors: false` sends none (reach it via the relay).
// Every process started is stopped (SIGTERM, then SIGKILL) when the test ends.
const TRIP_PEER = fileURLToPath(new URL('../peers/sdk-trip-server.ts', import.meta.url));

/** A running SDK v2 peer: its MCP endpoint and the HMAC key its requestState verifies with. */
export interface SdkPeer {
  url: string;
  key: string;
}

/** The SDK peer processes of one test. */
export class SdkPeers {
  readonly #children = new Set<ChildProcess>();
  constructor(readonly inspectorOrigin: string) {}

  /** Spawns a peer and resolves once it printed its URL (it listens by then). */
  async start(opts: { cors: boolean }): Promise<SdkPeer> {
    const { SDK_TRIP_KEY } = await import('../peers/sdk-trip-server.ts');
    const args = ['--import', 'tsx', TRIP_PEER, ...(opts.cors ? ['--cors', this.inspectorOrigin] : [])];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#children.add(child);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`sdk-trip-server printed no URL in 60 s: ${stderr}`)), 60_000);
      child.stdout!.on('data', (c: Buffer) => {
        out += c;
        const line = out.split('\n')[0];
        if (out.includes('\n')) {
          clearTimeout(timer);
          try {
            resolve((JSON.parse(line) as { url: string }).url);
          } catch {
            reject(new Error(`sdk-trip-server printed ${JSON.stringify(line)}, not {"url": …}`));
          }
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`sdk-trip-server exited (${code}) before listening: ${stderr}`));
      });
    });
    return { url, key: SDK_TRIP_KEY };
  }

  /** Stops every peer this test started and waits until each has exited. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#children].map((child) => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    })));
    this.#children.clear();
  }
}

/** `sdkPeers`: start official SDK v2 server processes in a test; all are stopped after it. */
export const sdkTest = test.extend<{ sdkPeers: SdkPeers }>({
  sdkPeers: async ({ baseURL }, use) => {
    const peers = new SdkPeers(new URL(baseURL!).origin);
    try {
      await use(peers);
    } finally {
      await peers.stopAll();
    }
  },
});

/** One place a page lets text out (or keeps it), and the text found there. */
export interface LeakPlace {
  place: string;
  text: string;
}

/**
 * Every way a page lets text out, for planted-secret searches (secrets.spec.ts). Attached
 * before the page loads, it keeps console messages of the page, its workers and the service
 * worker, page errors, every request the context sends (URL, headers, body), WebSocket
 * frames, and each download's text; `noteClipboard` adds what the page put on the
 * clipboard. `snapshot` adds what the page keeps now: the DOM (text, attributes and form
 * values), every IndexedDB database and store (keys and values), local and session storage,
 * Cache Storage and cookies. `find` says which places hold a needle.
 */
export class LeakWatch {
  readonly #seen: LeakPlace[] = [];
  readonly #downloads: Promise<void>[] = [];

  constructor(readonly page: Page) {
    const context = page.context();
    context.on('console', (m) => this.note(m.worker() ? `console of ${m.worker()!.url()}` : 'console', m.text()));
    context.on('weberror', (e) => this.note('page error', `${e.error().message}\n${e.error().stack ?? ''}`));
    page.on('pageerror', (e) => this.note('page error', `${e.message}\n${e.stack ?? ''}`));
    context.on('request', (r) => this.note(r.serviceWorker() ? 'request of the service worker' : 'request', `${r.method()} ${r.url()}\n${JSON.stringify(r.headers())}\n${r.postData() ?? ''}`));
    page.on('websocket', (ws) => ws.on('framesent', (f) => this.note('websocket', String(f.payload))));
    page.on('download', (d) => {
      const n = this.#downloads.length + 1;
      this.#downloads.push(d.path().then((p) => readFile(p, 'utf8')).then((text) => this.note(`download ${n}: ${d.suggestedFilename()}`, text)));
    });
  }

  note(place: string, text: string): void {
    this.#seen.push({ place, text });
  }

  /** How many downloads have been seen so far. */
  get downloads(): number {
    return this.#downloads.length;
  }

  /** Reads the clipboard (needs the clipboard permissions) and keeps its text. */
  async noteClipboard(): Promise<string> {
    const text = await this.page.evaluate(() => navigator.clipboard.readText());
    this.note('clipboard', text);
    return text;
  }

  /** What the page keeps now, place by place (IndexedDB one entry per store). */
  async snapshot(): Promise<LeakPlace[]> {
    const kept = await this.page.evaluate(async () => {
      const out: { place: string; text: string }[] = [];
      // Every string in a stored value, with bytes and blobs read as UTF-8 text.
      const flat = async (v: unknown, depth = 0): Promise<string> => {
        if (v === null || v === undefined || depth > 64) return '';
        if (typeof v === 'string') return v;
        if (typeof v !== 'object') return String(v);
        if (v instanceof Blob) return v.text();
        if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return new TextDecoder().decode(v);
        if (v instanceof Date) return v.toISOString();
        const entries = v instanceof Map ? [...v] : v instanceof Set ? [...v].entries() : Object.entries(v);
        const parts: string[] = [];
        for (const [k, x] of entries) parts.push(String(k), await flat(x, depth + 1));
        return parts.join('\n');
      };
      const req = <T>(r: IDBRequest<T>) => new Promise<T>((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
      for (const info of await indexedDB.databases()) {
        if (!info.name) continue;
        const db = await req(indexedDB.open(info.name));
        for (const name of Array.from(db.objectStoreNames)) {
          const store = db.transaction(name).objectStore(name);
          const [keys, values] = await Promise.all([req(store.getAllKeys()), req(store.getAll())]);
          out.push({ place: `indexeddb ${info.name}/${name}`, text: await flat([keys, values]) });
        }
        db.close();
      }
      for (const [place, s] of [['localStorage', localStorage], ['sessionStorage', sessionStorage]] as const) {
        out.push({ place, text: Object.entries({ ...s }).flat().join('\n') });
      }
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        const parts: string[] = [];
        for (const r of await cache.keys()) parts.push(r.url, (await (await cache.match(r))?.text()) ?? '');
        out.push({ place: `cache ${name}`, text: parts.join('\n') });
      }
      const values = Array.from(document.querySelectorAll('input, textarea, select')).map((e) => (e as HTMLInputElement).value);
      out.push({ place: 'DOM', text: [document.title, document.documentElement.outerHTML, ...values].join('\n') });
      out.push({ place: 'document.cookie', text: document.cookie });
      return out;
    });
    const cookies = await this.page.context().cookies();
    return [...kept, { place: 'cookies', text: JSON.stringify(cookies) }];
  }

  /** Every place (seen so far, or kept now) whose text holds any of `needles`, each place once. */
  async find(needles: readonly string[], opts: { keptToo?: boolean } = {}): Promise<string[]> {
    await Promise.all(this.#downloads);
    const places = [...this.#seen, ...(opts.keptToo === false ? [] : await this.snapshot())];
    const hits = places.filter((p) => needles.some((n) => n !== '' && p.text.includes(n))).map((p) => p.place);
    return [...new Set(hits)];
  }

  /** The names of the places searched (seen so far and kept now), to check a search covers them. */
  async places(): Promise<string[]> {
    await Promise.all(this.#downloads);
    return [...new Set([...this.#seen, ...(await this.snapshot())].map((p) => p.place))];
  }
}

// ---------------------------------------------------------------------------------------
// Fault tests (fault-relay, fault-two-tabs, fault-sw-update specs): a 2026-07-28 tools/call
// body, and an external client's call through the relay, made from the test process.

/** A `tools/call` request body as a 2026-07-28 client sends it. */
export function toolsCall(id: number, name = 'report'): string {
  return JSON.stringify({
    jsonrpc: '2.0', id, method: 'tools/call',
    params: {
      name, arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'e2e-fault', version: '0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
}

// Makes IndexedDB in this tab refuse relay records, as a full disk would, until `release`.
export async function failRelayStorage(page: Page): Promise<{ release(): Promise<void> }> {
  // The relay feed writes from the page's analysis worker: the patch goes into each worker
  // the page starts (a reload starts a new one), and a drain waits until it is in.
  let failing = true;
  const patched: Promise<unknown>[] = [];
  const patch = (worker: Worker) => worker.evaluate((on: boolean) => {
    const g = globalThis as { failRelayPuts?: boolean };
    if (g.failRelayPuts === undefined) {
      // Every way a relay record is written: `put`, and `add` for an id numbered new, a value
      // each or a chunk of them (worker/storage/chunks.ts).
      const relay = (v: unknown) => (v as { source?: string } | undefined)?.source === 'relay';
      for (const name of ['put', 'add'] as const) {
        const write = IDBObjectStore.prototype[name];
        IDBObjectStore.prototype[name] = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
          const refused = this.name === 'exchanges' ? relay(value)
            : this.name === 'chunks' && ((value as { records?: unknown[] } | undefined)?.records ?? []).some(relay);
          if (g.failRelayPuts && refused) {
            throw new DOMException('The quota has been exceeded (test).', 'QuotaExceededError');
          }
          return write.call(this, value, key);
        };
      }
    }
    g.failRelayPuts = on;
  }, failing).catch(() => undefined);
  page.on('worker', (w) => void patched.push(patch(w)));
  backlogListeners(page).gates.push(() => Promise.all(patched));
  await backlogListeners(page).routed;
  return {
    release: async () => {
      failing = false;
      await Promise.all(page.workers().map(patch));
    },
  };
}

/**
 * Holds the page's next backlog drain until `release()`: `asked` resolves once the page has
 * asked for it. Two pages held so can be answered at the same moment (two tabs draining the
 * same backlog at once). Set up before the page loads.
 */
export async function holdRelayBacklog(page: Page): Promise<{ asked: Promise<void>; release(): void }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let asked!: () => void;
  const askedP = new Promise<void>((r) => (asked = r));
  let used = false;
  backlogListeners(page).gates.push(() => {
    if (used) return Promise.resolve();
    used = true;
    asked();
    return released;
  });
  await backlogListeners(page).routed;
  return { asked: askedP, release };
}

/** POSTs a `toolsCall` body to the demo server through the relay URL, as an external MCP client would. */
export async function relayCall(relay: RelayUnderTest, body: string): Promise<{ status: number; text: string }> {
  const name = (JSON.parse(body) as { params: { name: string } }).params.name;
  const res = await fetch(relay.url('demo'), {
    method: 'POST', body,
    headers: {
      'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name,
    },
  });
  return { status: res.status, text: await res.text() };
}

// ---------------------------------------------------------------------------------------
// Fault tests (fault-storage, fault-worker specs): storage made full for real, the
// analysis worker, and downloads read as text.

/**
 * The app's origin made "full" through the DevTools protocol's quota override (a real
 * QuotaExceededError from IndexedDB, nothing stubbed). Hazard: Chromium's IndexedDB keeps
 * the space it was last granted and lets that allowance decay over 30 s
 * (BucketContext::kBucketSpaceCacheTimeLimit), so writes go on succeeding for up to 30 s
 * after the override. `fill` therefore waits until a probe write into a scratch database of
 * the same origin is refused; from then on every write asks the quota again and fails.
 */
export class StorageQuota {
  static readonly PROBE_DB = 'mrtr-e2e-quota-probe';
  private constructor(readonly page: Page, readonly cdp: CDPSession, readonly origin: string) {}

  static async of(page: Page): Promise<StorageQuota> {
    const q = new StorageQuota(page, await page.context().newCDPSession(page), new URL(page.url()).origin);
    await q.probe(); // creates the scratch database while writes still succeed
    return q;
  }

  /** One small write into the scratch database: 'ok', or the name of the error. */
  probe(): Promise<string> {
    return this.page.evaluate((name) => new Promise<string>((resolve) => {
      const open = indexedDB.open(name, 1);
      open.onupgradeneeded = () => open.result.createObjectStore('probe');
      open.onerror = () => resolve(`open: ${open.error?.name ?? 'error'}`);
      open.onsuccess = () => {
        const db = open.result;
        const tx = db.transaction('probe', 'readwrite');
        tx.objectStore('probe').put(crypto.randomUUID(), 'p');
        tx.oncomplete = () => { db.close(); resolve('ok'); };
        tx.onabort = () => { db.close(); resolve(tx.error?.name ?? 'aborted'); };
      };
    }), StorageQuota.PROBE_DB);
  }

  /** Sets the quota to one byte and waits until IndexedDB enforces it. */
  async fill(): Promise<void> {
    await this.cdp.send('Storage.overrideQuotaForOrigin', { origin: this.origin, quotaSize: 1 });
    await expect.poll(() => this.probe(), { message: 'IndexedDB never refused a write under the quota override', timeout: 60_000 })
      .toBe('QuotaExceededError');
  }

  /** Lifts the override: the next write asks the quota again and gets the real one. */
  async lift(): Promise<void> {
    await this.cdp.send('Storage.overrideQuotaForOrigin', { origin: this.origin });
    await this.cdp.detach().catch(() => undefined);
  }
}

/** The page's analysis worker (worker/facade.ts), once exactly one is running. */
export async function analysisWorker(page: Page) {
  const running = () => page.workers().filter((w) => w.url().includes('facade'));
  await expect.poll(() => running().length, { message: 'not exactly one analysis worker' }).toBe(1);
  return running()[0];
}

/** Clicks something that downloads a file, and returns the file's text. */
export async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: d.suggestedFilename(), text: await readFile((await d.path())!, 'utf8') };
}

/** A server for the single-copy tests: the demo, noting the headers of every request it got. */
export interface RecordingServer extends ConsoleServer {
  readonly headers: Record<string, string>[];
}

/**
 * `recordingDemo`: the embedded demo on 127.0.0.1 at a random port, noting each request's
 * headers (so a test can say what the server saw); no CORS, so reached through the relay.
 */
export const recordingTest = consoleTest.extend<{ recordingDemo: RecordingServer }>({
  recordingDemo: async ({}, use) => {
    const { serveRecordingDemo } = await import('../unit/console/servers.ts');
    const server = await serveRecordingDemo();
    try {
      await use(server);
    } finally {
      await server.close();
    }
  },
});

// ---------------------------------------------------------------------------------------
// Service worker versions (handshake and fault-sw-update specs). The page and its capture
// worker carry the build id of their build (server/sw-plugin.ts); another version of the
// worker is the served /sw.js with that id replaced, as an older or a redeployed build
// would serve it: routed to the browser (handshake), or written into a deployment of the
// test's own and served by the production server (fault-sw-update).
//
// Hazard: a service worker whose script a Playwright route fulfilled cannot fetch other
// 127.0.0.1 origins (its requests fail with net::ERR_FAILED; Chromium with Playwright
// 1.65), so a worker that must capture is served by a real server, not by `route.fulfill`.

/** The build id the capture service worker controlling `page` answers the handshake with. */
export function workerBuildId(page: Page): Promise<string> {
  return page.evaluate((protocol) => new Promise<string>((resolve, reject) => {
    const worker = navigator.serviceWorker.controller;
    if (!worker) return reject(new Error('no capture service worker controls the page'));
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = (e: MessageEvent<{ build: string }>) => {
      port1.close();
      resolve(e.data.build);
    };
    worker.postMessage({ type: 'hello', protocol, build: '' }, [port2]);
  }), PROTOCOL_VERSION);
}

/**
 * The build id of the server's current build, from a page opened in a browser context of
 * its own: the caller's context has no worker registered by this.
 */
export async function serverBuildId(browser: Browser, baseURL: string): Promise<string> {
  const context = await browser.newContext({ baseURL });
  try {
    await signIn(context, baseURL);
    const page = await context.newPage();
    await new InspectorPage(page).open();
    return await workerBuildId(page);
  } finally {
    await context.close();
  }
}

/** The service worker script `code` with build id `from` made `to`; throws when `from` is not in it. */
export function withBuildId(code: string, from: string, to: string): string {
  if (from === '' || !code.includes(from)) throw new Error(`build id ${JSON.stringify(from)} not found in /sw.js`);
  return code.split(from).join(to);
}

/** A deployment of the test's own (see `deploymentTest`). */
export interface Deployment {
  readonly origin: string;
  /** The copy of the build this server serves; the test may change it, as a redeploy does. */
  readonly webRoot: string;
}

/** The build the web server under test serves (the production server's dist/web). */
const BUILT_WEB = fileURLToPath(new URL('../../dist/web', import.meta.url));

/**
 * `deployment`: the production server (server/serve/inspector-server.ts, what `npm start`
 * runs) started in the test process on 127.0.0.1 at a free port, serving a copy of the
 * build (fresh: the web server's start built it), so a test can redeploy files, e.g. a new
 * service worker version, without touching the files the shared server serves. `baseURL`
 * is this server's, so `inspector` and `page.goto('/')` open it. Its relay has a token and
 * capture file of its own (the `relay` fixture does not reach it). Stopped after the test.
 */
export const deploymentTest = test.extend<{ deployment: Deployment }>({
  deployment: async ({}, use) => {
    if (!existsSync(join(BUILT_WEB, 'index.html'))) throw new Error(`no build at ${BUILT_WEB} (the web server's start builds it: node server/start.js --build-only)`);
    const { startInspectorServer } = await import('../../server/serve/inspector-server.ts');
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-e2e-deploy-'));
    try {
      const webRoot = join(dir, 'web');
      await cp(BUILT_WEB, webRoot, { recursive: true });
      const server = await startInspectorServer({
        webRoot, port: 0,
        relay: { token: randomBytes(24).toString('base64url'), pageToken: PAGE_TOKEN, jsonlPath: join(dir, 'relay-capture.jsonl'), relayDir: dir },
      });
      try {
        await use({ origin: server.origin, webRoot });
      } finally {
        await server.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ deployment }, use) => use(deployment.origin),
});
