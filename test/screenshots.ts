// `npm run screenshots`: the README's three pictures (light, dark, 1024 wide), taken of the
// demo server's recorded session (test/fixtures/sdk/sdk-v2-manual.har) with the setup wizard
// open. Starts `vite dev` on its own port (SCREENSHOT_PORT, default 5219) on 127.0.0.1 with a
// throwaway relay file, drives Debian's Chromium, and stops both. Writes docs/screenshots/*.png.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const PORT = Number(process.env.SCREENSHOT_PORT ?? 5219);
const BASE = `http://127.0.0.1:${PORT}`;
const OUT = join(root, 'docs/screenshots');
const FIXTURE = join(root, 'test/fixtures/sdk/sdk-v2-manual.har');

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${BASE}/`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`vite did not answer on ${BASE} within 2 minutes`);
}

/** The demo session imported, the wizard's second round selected, its requestState tab shown. */
async function stage(page: Page): Promise<void> {
  await page.goto(BASE);
  await page.getByTestId('sw-status').and(page.locator('[data-status="capturing"]')).waitFor({ timeout: 60_000 });
  await page.getByTestId('import-file').setInputFiles(FIXTURE);
  await page.getByTestId('count-conversations').filter({ hasText: '5 conversations' }).waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="conversation"]').filter({ hasText: 'setup_wizard' }).click();
  await page.getByTestId('round').nth(1).locator('.head').click();
  for (const close of await page.getByRole('button', { name: 'Dismiss' }).all()) await close.click();
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const relayDir = mkdtempSync(join(tmpdir(), 'mrtr-shots-'));
  const vite = spawn('npx', ['vite', '--port', String(PORT), '--strictPort', '--host', '127.0.0.1'], {
    cwd: root, stdio: 'ignore', detached: true,
    env: { ...process.env, MRTR_RELAY_JSONL: join(relayDir, 'relay.jsonl') },
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    await waitForServer();
    const shots = [
      { file: 'light-1440.png', colorScheme: 'light', viewport: { width: 1440, height: 900 }, tab: 'state' },
      { file: 'dark-1440.png', colorScheme: 'dark', viewport: { width: 1440, height: 900 }, tab: 'findings' },
      { file: 'light-1024.png', colorScheme: 'light', viewport: { width: 1024, height: 640 }, tab: null },
    ] as const;
    for (const s of shots) {
      // A fresh context each: its own service worker, storage and layout.
      const context = await browser.newContext({ colorScheme: s.colorScheme, viewport: s.viewport, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await stage(page);
      if (s.tab) await page.getByTestId(`tab-${s.tab}`).click();
      await page.screenshot({ path: join(OUT, s.file) });
      console.log(`wrote docs/screenshots/${s.file}`);
      await context.close();
    }
  } finally {
    await browser.close();
    if (vite.pid) process.kill(-vite.pid, 'SIGTERM');
    rmSync(relayDir, { recursive: true, force: true });
  }
}

await main();
