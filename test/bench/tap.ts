// Tap benchmark: what the capture service worker costs a request, on loopback.
//   npx tsx test/bench/tap.ts            (env: CHROMIUM_PATH, TAP_SAMPLES, TAP_WARMUP)
// Two bare pages of the app's origin call the same local server: one controlled by the
// service worker, with the endpoint watched (tapped), one in a context where service
// workers are blocked (direct). For context, the controlled page also calls an unwatched
// path (the worker's fetch handler runs but does not respond). Samples rotate between the
// three after a warm-up and are timed inside the page with performance.now().
// Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { launchBrowser } from './browser.ts';
import { createServer } from 'vite';
import { startTestMcpServer } from '../e2e/test-server.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const SAMPLES = Number(process.env.TAP_SAMPLES ?? 200);
const WARMUP = Number(process.env.TAP_WARMUP ?? 30);

const BODY = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'tools/call',
  params: { name: 'bench', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
});

// Runs in the page: one POST, timed to the whole body (json) or to the first event (sse).
async function timeOne(page: Page, url: string, mode: 'json' | 'sse'): Promise<number> {
  return page.evaluate(async ({ url, mode, body }) => {
    const headers = {
      'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'bench',
    };
    const t0 = performance.now();
    const res = await fetch(url, { method: 'POST', headers, body });
    if (mode === 'json') {
      await res.text();
      return performance.now() - t0;
    }
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    let first = -1;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
      if (first < 0 && seen.includes('\n\n')) first = performance.now() - t0;
    }
    return first;
  }, { url, mode, body: BODY });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
function p90(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.9))];
}

type Side = 'direct' | 'tapped' | 'passed';
const ROTATIONS: Side[][] = [['tapped', 'direct', 'passed'], ['direct', 'passed', 'tapped'], ['passed', 'tapped', 'direct']];

// Rotates the order every sample, so no side always runs first or last.
async function interleaved(
  pages: { tapped: Page; direct: Page },
  urls: { watched: string; unwatched: string },
  mode: 'json' | 'sse',
  n: number,
): Promise<Record<Side, number[]>> {
  const out: Record<Side, number[]> = { tapped: [], direct: [], passed: [] };
  for (let i = 0; i < n; i++) {
    for (const side of ROTATIONS[i % 3]) {
      const page = side === 'direct' ? pages.direct : pages.tapped;
      out[side].push(await timeOne(page, side === 'passed' ? urls.unwatched : urls.watched, mode));
    }
  }
  return out;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'mrtr-tap-bench-'));
  process.env.MRTR_RELAY_JSONL = join(scratch, 'relay-capture.jsonl');
  const server = await startTestMcpServer();
  const port = 5300 + Math.floor(Math.random() * 400);
  const vite = await createServer({
    root: join(ROOT, 'web'), configFile: join(ROOT, 'vite.config.ts'), logLevel: (process.env.TAP_VITE_LOG as 'info' | undefined) ?? 'error',
    // No file watching or HMR: an edit elsewhere in the checkout must not reload the pages mid-run.
    server: { port, strictPort: true, host: '127.0.0.1', watch: null, hmr: false },
  });
  await vite.listen();
  const app = `http://127.0.0.1:${port}/`;
  const browser = await launchBrowser();
  try {
    const withSw = await browser.newContext();
    const noSw = await browser.newContext({ serviceWorkers: 'block' });
    const tapped = await withSw.newPage();
    const direct = await noSw.newPage();
    if (process.env.TAP_VITE_LOG) tapped.on('console', (m) => console.log('[page]', m.text()));
    await Promise.all([tapped.goto(app), direct.goto(app)]);
    await tapped.getByTestId('sw-status').and(tapped.locator('[data-status="capturing"]')).waitFor({ timeout: 60_000 });
    const json = { watched: server.url('/mcp?size=1024'), unwatched: server.url('/unwatched/mcp?size=1024') };
    const sseUrls = { watched: server.url('/stream?hold=no'), unwatched: server.url('/unwatched/stream?hold=no') };
    for (const u of [server.url('/mcp'), server.url('/stream')]) {
      await tapped.getByTestId('target-url').fill(u);
      await tapped.getByTestId('add-target').click();
      await tapped.locator(`[data-testid="target"][data-url="${u}"]`).waitFor();
      // The form clears once the service worker has re-read its watch list.
      await tapped.waitForFunction(() => (document.querySelector('[data-testid="target-url"]') as HTMLInputElement).value === '');
    }
    // Measure from a bare document on each side, so the app's own UI work (live lists,
    // analysis) is not billed to the tap: /sw.js is a same-origin URL inside the scope.
    await Promise.all([tapped.goto(new URL('/sw.js', app).href), direct.goto(new URL('/sw.js', app).href)]);
    // Check the tapped side really is tapped (and the direct side really is not).
    if (!(await tapped.evaluate(() => !!navigator.serviceWorker.controller))) throw new Error('tapped page is not controlled');
    if (await direct.evaluate(() => !!navigator.serviceWorker?.controller)) throw new Error('direct page is controlled');

    const pages = { tapped, direct };
    await interleaved(pages, json, 'json', WARMUP);
    await interleaved(pages, sseUrls, 'sse', WARMUP);
    const j = await interleaved(pages, json, 'json', SAMPLES);
    const e = await interleaved(pages, sseUrls, 'sse', SAMPLES);

    const f = (x: number) => x.toFixed(2);
    const row = (xs: number[]) => `${f(median(xs))} ms (p90 ${f(p90(xs))})`;
    const jr = median(j.tapped) / median(j.direct);
    const sd = median(e.tapped) - median(e.direct);
    console.log(`tap bench: ${SAMPLES} interleaved samples per side after ${WARMUP} warm-up, Chromium, loopback`);
    console.log(`  1 KB JSON   direct ${row(j.direct)} | through SW (tapped) ${row(j.tapped)} | SW present, not tapped ${row(j.passed)}`);
    console.log(`              tapped/direct median ratio ${jr.toFixed(3)}x (goal <= 1.15x) ${jr <= 1.15 ? 'OK' : 'OVER'}`);
    console.log(`  SSE first   direct ${row(e.direct)} | through SW (tapped) ${row(e.tapped)} | SW present, not tapped ${row(e.passed)}`);
    console.log(`  event       tapped - direct median ${sd >= 0 ? '+' : ''}${f(sd)} ms (goal <= 2 ms) ${sd <= 2 ? 'OK' : 'OVER'}`);
    await withSw.close();
    await noSw.close();
  } finally {
    await browser.close();
    await vite.close();
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Entry point for `npm run bench` (test/bench/run.ts). */
export const run = main;

// Also runnable on its own: `npx tsx test/bench/tap.ts`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
