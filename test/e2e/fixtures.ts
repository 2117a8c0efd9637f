// The one fixtures file for browser tests. Import `test` and `expect` from here:
//   mcpServer  a local MCP-like server (test-server.ts), stopped after the test
//   inspector  the app opened at `/`, capturing, with helpers to drive and inspect it
//   relay      the dev server's relay (token and JSONL set in playwright.config.ts), and
//              the official SDK v2 client run against it as a separate Node process
// Every fixture stops what it started. Waits are on conditions, never on the clock.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type CDPSession, type Page } from '@playwright/test';
import { readJsonl } from '../../worker/capture/jsonl.ts';
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { RELAY_JSONL, RELAY_TOKEN } from './playwright.config.ts';
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

  /** The row of the conversation list with this method and name. */
  conversationRow(name: string, nth = 0) {
    return this.page.locator('[data-testid="conversation"]').filter({ hasText: name }).nth(nth);
  }

  /** Every stored exchange of one capture session, in seq order. */
  async sessionExchanges(session: string): Promise<ExchangeRecord[]> {
    return (await this.storedExchanges()).filter((r) => r.session === session).sort((a, b) => a.seq - b.seq);
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

  /** Every exchange record in IndexedDB, read directly (what survives a reload). */
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
            const get = db.transaction('exchanges').objectStore('exchanges').getAll();
            get.onsuccess = () => {
              db.close();
              resolve(get.result as ExchangeRecord[]);
            };
            get.onerror = () => reject(get.error);
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
      await cdp.send('ServiceWorker.stopWorker', { versionId });
      await expect.poll(() => versions.get(versionId)?.runningStatus, { message: 'service worker did not stop' }).toBe('stopped');
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
  readonly token = RELAY_TOKEN;
  readonly jsonl = RELAY_JSONL;
  readonly #children = new Set<ChildProcess>();
  constructor(readonly baseURL: string) {}

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

/** What the page's relay feed fetched from the backlog, as seen by `watchRelayFeed`. */
export interface RelayFeedWatch {
  /** Resolves with the body of the next backlog drain the page completes. */
  connected: Promise<string>;
  /** Every backlog body the page has received since the watch began. */
  drained(): Promise<string[]>;
}

/**
 * Watches the page's relay feed (web/lib/relay-feed.ts). The feed drains the backlog only
 * after its event stream is open, so once `connected` resolves the relay pushes to this
 * page instead of filing. Start the watch before the page loads (or reloads).
 */
export function watchRelayFeed(page: Page): RelayFeedWatch {
  const bodies: Promise<string>[] = [];
  const isBacklog = (url: string) => new URL(url).pathname === '/relay/api/backlog';
  page.on('response', (res) => {
    if (isBacklog(res.url())) bodies.push(res.text().catch(() => ''));
  });
  const connected = page.waitForResponse((res) => isBacklog(res.url()) && res.ok(), { timeout: 45_000 }).then((res) => res.text());
  return { connected, drained: () => Promise.all(bodies) };
}

export const test = base.extend<{ mcpServer: TestMcpServer; inspector: InspectorPage; relay: RelayUnderTest }>({
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
  relay: async ({ baseURL }, use) => {
    const relay = new RelayUnderTest(baseURL!);
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
