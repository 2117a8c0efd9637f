// Browser tests: Debian Chromium only (no `playwright install` here), against the
// production server users run (`npm start`: server/start.js, cli/serve.ts on node:http,
// serving the built dist/web with the relay, the demo and the CSP), on its own port so a
// developer's server on 5173 is never reused by mistake. start.js builds the page and the
// compiled server first when either is missing or older than its sources (`npm test`
// builds before Playwright, so the start is quick there). `vite dev` mounts the same
// relay, demo and CSP code as plugins; test/unit/relay/vite-plugin.test.ts covers that.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = fileURLToPath(new URL('.', import.meta.url));
const PORT = Number(process.env.E2E_PORT ?? 5199);
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The relay's token and capture file, unique per run and known to the tests. Playwright
// loads this file again in each worker process; the runner's env is inherited there, so
// the first load (the runner) decides and the workers read the same values.
function runDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-e2e-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
export const RELAY_JSONL = join((process.env.MRTR_E2E_RELAY_DIR ??= runDir()), 'relay-capture.jsonl');
export const RELAY_TOKEN = (process.env.MRTR_E2E_RELAY_TOKEN ??= randomBytes(24).toString('base64url'));
// The token of the link that lets a browser in (server/relay/page-login.ts): passed to the
// server in its env, never argv, and exchanged for the page cookie by each test's context.
export const PAGE_TOKEN = (process.env.MRTR_E2E_PAGE_TOKEN ??= randomBytes(24).toString('base64url'));
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run',
];

export default defineConfig({
  testDir: here,
  testMatch: '**/*.spec.ts',
  outputDir: resolve(here, '../../test-results/e2e'),
  // A slow 2-core machine: one worker, generous timeouts, no timing asserts in tests.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: resolve(here, '../../playwright-report') }]] : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    actionTimeout: 20_000,
    navigationTimeout: 45_000,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    // Binds 127.0.0.1 only (server/serve/inspector-server.ts) and never moves to another
    // port: a taken port fails the start. The banner it prints goes nowhere.
    command: `node server/start.js --port ${PORT}`,
    cwd: resolve(here, '../..'),
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    // Room for a build when stale (`vite build` and `tsc`, on a slow, loaded 2-core machine).
    timeout: 300_000,
    // SIGTERM lets the server end its event streams and close (cli/serve.ts), as Ctrl-C does.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    // Keep the relay's capture file and target list away from a developer's own.
    env: { MRTR_RELAY_JSONL: RELAY_JSONL, MRTR_RELAY_TOKEN: RELAY_TOKEN, MRTR_PAGE_TOKEN: PAGE_TOKEN, MRTR_RELAY_DIR: dirname(RELAY_JSONL) },
  },
});
