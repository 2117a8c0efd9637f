// Browser tests: Debian Chromium only (no `playwright install` here), against the
// production server users run (`npm start`: server/start.js, cli/serve.ts on node:http,
// serving the built dist/web with the relay, the demo and the CSP), on ports of their own
// so a developer's server on 5173 is never reused by mistake. start.js builds the page and
// the compiled server first when either is missing or older than its sources (`npm test`
// builds before Playwright, so the start is quick there). `vite dev` mounts the same
// relay, demo and CSP code as plugins; test/unit/relay/vite-plugin.test.ts covers that.
//
// Workers: E2E_WORKERS (2 by default) test files run at once, each worker against a server
// of its own: worker n (its parallelIndex) on port E2E_PORT + n (5199, 5200 by default),
// with a relay token and capture file of its own, since a relay's capture file and state
// belong to one server. Tests reach theirs through the `server` fixture (fixtures.ts).
// Set E2E_WORKERS, not --workers, to change the count: a worker needs its server started.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, playwrightBundle } from './chromium-args.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const BASE_PORT = Number(process.env.E2E_PORT ?? 5199);
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The relays' token and capture files, unique per run and known to the tests. Playwright
// loads this file again in each worker process; the runner's env is inherited there, so
// the first load (the runner) decides and the workers read the same values.
function runDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-e2e-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const RELAY_DIR = (process.env.MRTR_E2E_RELAY_DIR ??= runDir());
const RELAY_TOKEN = (process.env.MRTR_E2E_RELAY_TOKEN ??= randomBytes(24).toString('base64url'));
// The token of the link that lets a browser in (server/relay/page-login.ts): passed to every
// server in its env, never argv, and exchanged for the page cookie by each test's context.
export const PAGE_TOKEN = (process.env.MRTR_E2E_PAGE_TOKEN ??= randomBytes(24).toString('base64url'));

/** The production server a worker's tests run against, with its relay's token and capture file. */
export interface ServerUnderTest {
  readonly origin: string;
  readonly port: number;
  readonly relayToken: string;
  readonly relayJsonl: string;
}

/** The server of the worker with this parallelIndex. */
export function serverUnderTest(index: number): ServerUnderTest {
  if (!Number.isInteger(index) || index < 0 || index >= WORKERS) {
    throw new Error(`no browser-test server for worker ${index}: ${WORKERS} started (set E2E_WORKERS, not --workers, to run more workers)`);
  }
  const port = BASE_PORT + index;
  return { origin: `http://127.0.0.1:${port}`, port, relayToken: `${RELAY_TOKEN}${index}`, relayJsonl: join(RELAY_DIR, `relay-capture-${index}.jsonl`) };
}

// Chromium's flags (chromium-args.ts): without its omnibox popup, a renderer per context.
export const CHROMIUM_ARGS = chromiumArgs(playwrightBundle(), (m) => console.warn(m));

export default defineConfig({
  testDir: here,
  testMatch: '**/*.spec.ts',
  outputDir: resolve(here, '../../test-results/e2e'),
  // A slow 2-core machine: generous timeouts, no timing asserts in tests. A file's tests
  // run in order in one worker; files are spread over the workers.
  workers: WORKERS,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: resolve(here, '../../playwright-report') }]] : 'list',
  use: {
    // No baseURL here: each worker's is its own server's (the `baseURL` fixture in fixtures.ts).
    // Traced only when a failed test runs again (CI retries once), so a failure in CI still
    // has its trace. Tracing every test and discarding it on success cost a third of the
    // CPU of a sample of specs (screenshots in the GPU process, snapshots in the runner).
    trace: 'on-first-retry',
    actionTimeout: 20_000,
    navigationTimeout: 45_000,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  // Started one after another, so only the first builds when the build is stale.
  webServer: Array.from({ length: WORKERS }, (_, i) => serverUnderTest(i)).map((server) => ({
    // Binds 127.0.0.1 only (server/serve/inspector-server.ts) and never moves to another
    // port: a taken port fails the start. The banner it prints goes nowhere.
    command: `node server/start.js --port ${server.port}`,
    cwd: resolve(here, '../..'),
    url: `${server.origin}/`,
    reuseExistingServer: false,
    // Room for a build when stale (`vite build` and `tsc`, on a slow, loaded 2-core machine).
    timeout: 300_000,
    // SIGTERM lets the server end its event streams and close (cli/serve.ts), as Ctrl-C does.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    // Keep the relay's capture file, target list and info file (inspector-<port>.json, which
    // wrap reads) away from a developer's own.
    env: { MRTR_RELAY_JSONL: server.relayJsonl, MRTR_RELAY_TOKEN: server.relayToken, MRTR_PAGE_TOKEN: PAGE_TOKEN, MRTR_RELAY_DIR: RELAY_DIR },
  })),
});
