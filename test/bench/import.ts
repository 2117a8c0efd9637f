// Import benchmark: a generated HAR imported in the page (headless Chromium, the built
// inspector's `serve`: run `npm run build` first) against `mrtr-inspector lint` on the same
// file, side by side in one run.
//   npm run build && npx tsx test/bench/import.ts   (env: CHROMIUM_PATH, IMPORT_EXCHANGES: sizes, comma
//                                        separated, default 20000,100000; 1M on request:
//                                        IMPORT_EXCHANGES=1000000, a run of many minutes;
//                                        IMPORT_PROFILE=memory for an off-the-record window)
// The page runs in a browser with an on-disk profile (IndexedDB on disk, as users have),
// opened once the browser is at rest (test/bench/browser.ts).
// Prints: time from picking the file until the status bar counts every exchange of it
// (listed), until its checks are done too (no "checking" left: every finding counted) and
// until the import answered (everything stored), the storage rate (exchanges stored per
// second from picking the file), the peak JS heap of the page's workers (the analysis worker
// holds the session; sampled over the DevTools protocol, test/bench/worker-probe.ts), the
// time until the first screen of rows shows, the longest main-thread task meanwhile and how
// many passed 200 ms, the CLI's lint time before and after, and the ratios page / CLI.
// Asserts nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser, openPage, openPersistent, type PageAtRest } from './browser.ts';
import { generateCapture } from './generate-capture.ts';
import { signIn, startInspector, stopInspector } from './inspector-serve.ts';
import { probeWorkers } from './worker-probe.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const SIZES = (process.env.IMPORT_EXCHANGES ?? '20000,100000').split(',').map(Number);
/** `disk` (default): a browser with an on-disk profile, as users have; `memory`: an off-the-record window. */
const PROFILE = process.env.IMPORT_PROFILE ?? 'disk';
if (PROFILE !== 'disk' && PROFILE !== 'memory') throw new Error(`IMPORT_PROFILE must be disk or memory, not ${JSON.stringify(PROFILE)}`);

function lintMs(file: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'cli/bin.js'), 'lint', file, '--format', 'json', '--output', '/dev/null'], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`lint failed (${r.status}): ${r.stderr}`);
  return ms;
}

export async function run(): Promise<void> {
  for (const n of SIZES) await measure(n);
}

async function measure(EXCHANGES: number): Promise<void> {
  const cache = join(ROOT, '.bench');
  mkdirSync(cache, { recursive: true });
  const file = join(cache, `import-${EXCHANGES}.har`);
  if (!existsSync(file)) await generateCapture(file, EXCHANGES);
  const size = statSync(file).size;

  const cliBefore = lintMs(file);
  // The built inspector (`npm run build` first), as users run it: `serve`, signed in by its link.
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-import-bench-'));
  const jsonl = join(dir, 'relay.jsonl');
  writeFileSync(jsonl, '');
  const { child, origin } = await startInspector(ROOT, 0, jsonl);
  const profileDir = join(dir, 'profile');
  const viewport = { width: 1500, height: 900 };
  // Both ways at rest (test/bench/browser.ts); the browser closes with its last window.
  let opened: PageAtRest;
  if (PROFILE === 'disk') opened = await openPersistent(profileDir, { viewport });
  else opened = await openPage(await launchBrowser(), { viewport });
  const { page, context } = opened;
  try {
    await signIn(context.request, origin);
    const probe = await probeWorkers(page); // attached before navigating: workers attach as spawned
    await page.goto(`${origin}/`);
    await page.locator('[data-testid="sw-status"][data-status="capturing"]').waitFor({ timeout: 60_000 });
    await page.evaluate(() => {
      const w = window as unknown as { __imp: { longest: number; over200: number; rows: number; listed: number; checked: number; want: number } };
      w.__imp = { longest: 0, over200: 0, rows: 0, listed: 0, checked: 0, want: Infinity };
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          w.__imp.longest = Math.max(w.__imp.longest, e.duration);
          if (e.duration > 200) w.__imp.over200++;
        }
      }).observe({ type: 'longtask' });
      // Stamped as the page changes: the first screen of rows, the status bar counting every
      // exchange, then no checks left.
      const obs = new MutationObserver(() => {
        const now = performance.now();
        if (!w.__imp.rows && document.querySelectorAll('[data-testid="conversation"]').length > 20) w.__imp.rows = now;
        if (!w.__imp.listed) {
          const t = document.querySelector('[data-testid="count-exchanges"]')?.textContent ?? '';
          if (Number(/\d[\d,]*/.exec(t)?.[0].replace(/,/g, '') ?? 0) >= w.__imp.want) w.__imp.listed = now;
        }
        if (w.__imp.listed && !w.__imp.checked && document.querySelector('[data-testid="count-checking"]') === null) w.__imp.checked = now;
        if (w.__imp.rows && w.__imp.checked) obs.disconnect();
      });
      obs.observe(document.body, { childList: true, subtree: true });
    });
    const t0 = await page.evaluate((n) => {
      (window as unknown as { __imp: { want: number } }).__imp.want = n;
      return performance.now();
    }, EXCHANGES);
    await page.getByTestId('import-file').setInputFiles(file);
    await page.getByTestId('import-progress').waitFor({ state: 'hidden', timeout: 600_000 });
    await page.getByTestId('notice').filter({ hasText: 'Imported' }).first().waitFor({ timeout: 600_000 });
    const answered = await page.evaluate(() => performance.now());
    // Listed and checked: stamped by the observer (waited for here, in case they come last).
    await page.waitForFunction(() => (window as unknown as { __imp: { checked: number } }).__imp.checked > 0, undefined, { timeout: 1_800_000, polling: 50 });
    const { listed, checked, rows, longest, over200 } = await page.evaluate(() => {
      const w = window as unknown as { __imp: { longest: number; over200: number; rows: number; listed: number; checked: number } };
      return { ...w.__imp };
    });
    const count = (await page.getByTestId('count-conversations').textContent())?.trim();
    const heapPeak = probe.heapPeakMb();
    await probe.detach();
    const pageMs = listed - t0;
    // Before and after the page, so a change of load during the run shows as a spread.
    const cli = [cliBefore, lintMs(file)];
    const cliMs = Math.min(...cli);
    console.log(`import: ${EXCHANGES} exchanges (${(size / 1048576).toFixed(1)} MB), ${count}; ${PROFILE === 'disk' ? 'on-disk' : 'off-the-record'} profile`);
    console.log(`  page: listed ${pageMs.toFixed(0)} ms after the file was picked; checked ${(checked - t0).toFixed(0)} ms; stored (import answered) ${(answered - t0).toFixed(0)} ms; first screen of rows at ${rows ? (rows - t0).toFixed(0) : '?'} ms; longest main-thread task ${longest.toFixed(0)} ms, ${over200} over 200 ms`);
    console.log(`  stored at ${(EXCHANGES / ((answered - t0) / 1000)).toFixed(0)} exchanges/s from picking the file; peak worker heap ${heapPeak === null ? 'not read' : `${heapPeak.toFixed(0)} MB`}`);
    console.log(`  mrtr-inspector lint on the same file: ${cli.map((x) => x.toFixed(0)).join(' / ')} ms (best ${cliMs.toFixed(0)})`);
    console.log(`  ratio page / CLI: listed ${(pageMs / cliMs).toFixed(2)}x (goal at most 2x); checked ${((checked - t0) / cliMs).toFixed(2)}x; stored ${((answered - t0) / cliMs).toFixed(2)}x`);
  } finally {
    await context.close();
    await context.browser()?.close();
    await stopInspector(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
