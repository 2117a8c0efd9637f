// UI benchmark: a generated capture of ~10k conversations imported in headless Chromium.
//   npx tsx test/bench/ui.ts          (env: CHROMIUM_PATH, UI_CONVERSATIONS, UI_SCREENS)
// Prints (1) the time from the analysis worker's list answer to the first screen of rows in
// the DOM and painted, and (2) frame times while the list scrolls (p50/p95). Asserts nothing.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser, openPage } from './browser.ts';
import { tmpdir } from 'node:os';
import { build, preview } from 'vite';
import { generateCapture } from './generate-capture.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
// The generator averages three rounds per call (2–4), so 3 exchanges per conversation.
const CONVERSATIONS = Number(process.env.UI_CONVERSATIONS ?? 10_000);
const SCREENS = process.env.UI_SCREENS; // a directory: also save a screenshot of the big import

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};

export async function run(): Promise<void> {
  const dir = join(ROOT, '.bench');
  mkdirSync(dir, { recursive: true });
  const exchanges = CONVERSATIONS * 3;
  const file = join(dir, `ui-capture-${exchanges}.har`);
  if (!existsSync(file)) await generateCapture(file, exchanges);
  const size = statSync(file).size;

  // The production build, as `npm start` serves it (the dev build runs Svelte's dev-time
  // checks on every update, which is not what users get).
  const out = mkdtempSync(join(tmpdir(), 'mrtr-ui-bench-'));
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
  const server = await preview({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'error', build: { outDir: out }, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const addr = server.httpServer!.address() as { port: number };
  const browser = await launchBrowser();
  try {
    const { page } = await openPage(browser, { viewport: { width: 1500, height: 900 } }); // at rest: test/bench/browser.ts
    await page.goto(`http://127.0.0.1:${addr.port}/`);
    await page.locator('[data-testid="sw-status"][data-status="capturing"]').waitFor({ timeout: 60_000 });

    // Watch for the first screen of rows: a MutationObserver notes when rows appear after
    // the list answer (the page records the answer time on its Devtools state), then the
    // next animation frame is when that screen is painted.
    await page.evaluate(() => {
      const w = window as unknown as { __bench: { answer: number; rows: number; painted: number } };
      w.__bench = { answer: 0, rows: 0, painted: 0 };
      // No named inner functions here: tsx would wrap them in a __name helper the page lacks.
      const obs = new MutationObserver(() => {
        const n = document.querySelector('[data-testid="conversation-scroll"]')?.querySelectorAll('[data-testid="conversation"]').length ?? 0;
        if (n > 20 && !w.__bench.rows) {
          w.__bench.rows = performance.now();
          requestAnimationFrame(() => (w.__bench.painted = performance.now()));
          obs.disconnect();
        }
      });
      obs.observe(document.body, { childList: true, subtree: true });
    });
    const t0 = Date.now();
    await page.getByTestId('import-file').setInputFiles(file);
    await page.waitForFunction(() => (window as unknown as { __bench: { painted: number } }).__bench.painted > 0, null, { timeout: 600_000 });
    const importMs = Date.now() - t0;
    const b = await page.evaluate(() => (window as unknown as { __bench: { rows: number; painted: number } }).__bench);
    // The last list answer before the rows appeared (the page marks each one).
    const answerAt = await page.evaluate((rows) => {
      const marks = performance.getEntriesByName('mrtr:list-answer').map((m) => m.startTime).filter((t) => t <= rows);
      return marks.length ? marks[marks.length - 1] : NaN;
    }, b.rows);
    const count = await page.getByTestId('count-conversations').textContent();

    // Baseline: frames with nothing to do, on this machine and renderer, for context.
    const idle = await page.evaluate(async () => {
      const times: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 120; i++) {
        await new Promise<void>((r) => requestAnimationFrame(() => r()));
        const now = performance.now();
        times.push(now - last);
        last = now;
      }
      return times;
    });
    // Scroll the list by wheel-sized steps, one per frame, and record each frame's duration.
    const frames = await page.evaluate(async () => {
      const el = document.querySelector('[data-testid="conversation-scroll"]') as HTMLElement;
      const times: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 600; i++) {
        el.scrollTop += 120;
        await new Promise<void>((r) => requestAnimationFrame(() => r()));
        const now = performance.now();
        times.push(now - last);
        last = now;
      }
      return times;
    });
    if (SCREENS) {
      mkdirSync(SCREENS, { recursive: true });
      await page.locator('[data-testid="conversation"]').nth(5).click();
      await page.getByTestId('round').first().waitFor();
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(SCREENS, 'large-import.png') });
    }
    console.log(`ui: ${count?.trim()} (${exchanges} exchanges generated, ${(size / 1048576).toFixed(1)} MB), import + analysis ${importMs} ms in the worker and page`);
    console.log(`  worker answer → first screen of rows in the DOM: ${(b.rows - answerAt).toFixed(1)} ms; painted: ${(b.painted - answerAt).toFixed(1)} ms (goal < 300 ms)`);
    console.log(`  scroll frame time over ${frames.length} frames: p50 ${pct(frames, 0.5).toFixed(1)} ms, p95 ${pct(frames, 0.95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms (goal p95 < 16 ms); idle frames here: p50 ${pct(idle, 0.5).toFixed(1)} ms, p95 ${pct(idle, 0.95).toFixed(1)} ms`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
