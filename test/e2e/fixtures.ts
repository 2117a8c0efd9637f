// The one fixtures file for browser tests. Import `test` and `expect` from here:
//   mcpServer  a local MCP-like server (test-server.ts), stopped after the test
//   inspector  the app opened at `/`, capturing, with helpers to drive and inspect it
// Every fixture stops what it started. Waits are on conditions, never on the clock.
import { test as base, expect, type CDPSession, type Page } from '@playwright/test';
import type { ExchangeRecord } from '../../worker/protocol.ts';
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

export const test = base.extend<{ mcpServer: TestMcpServer; inspector: InspectorPage }>({
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
});
