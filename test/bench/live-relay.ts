// The live figures in the browser: the built inspector (`mrtr-inspector serve`, port 5204)
// started on a relay capture file holding N exchanges, the page opened in headless
// Chromium (a fresh profile per N, opened once the browser is at rest: test/bench/browser.ts), then:
//   0. one call through the relay before the page opens, untimed: a server's first call
//      compiles the relay's forward path and the demo's schemas (60–250 ms, in every run and
//      at every size, 1k included), which is not what is measured here; the relay files it,
//      so the backlog the page opens holds N + 1 exchanges;
//   1. backlog: time from navigating until the status bar counts all N (the relay backlog
//      drained into the page's capture session), and the longest main-thread task meanwhile;
//      timed LIVE_OPENS times (default 3, at most once above 20k, none for 0) at rest and as many times in a window
//      opened at once (the browser's work for it running), interleaved: medians are printed;
//   2. live: while the listed backlog is still being written (until the relay's file is
//      emptied by the acknowledgement, at most LIVE_STORING_SAMPLES calls), then once it is stored, an
//      external client (plain fetch from Node) calls the demo THROUGH THE RELAY,
//      one call at a time, spaced; the page stamps Date.now() when the status bar's
//      exchange count changes (a MutationObserver), the client stamps Date.now() when it
//      sends and when the answer has arrived: same wall clock on both sides.
//   npx tsx test/bench/live-relay.ts        (env: LIVE_SIZES=1000,20000 LIVE_SAMPLES=50,
//                                            LIVE_STORING_SAMPLES=20 (calls at most while storing),
//                                            LIVE_OPENS=3, LIVE_PORT=5204, CHROMIUM_PATH,
//                                            LIVE_CPU_PROFILE=<path>: the workers' CPU profile
//                                            of each size's first open, until listed, or with
//                                            LIVE_CPU_PROFILE_PHASE=storing from listed to stored;
//                                            LIVE_TRACE=<path>: a Chrome trace, every thread, from
//                                            listed until stored: <path>-<n>.json, for DevTools);
//                                            LIVE_PAGE_METRICS=1: the page's own work per call once
//                                            stored (Chromium's Performance.getMetrics, from the send
//                                            until the next call: tasks, script, style, layout);
//                                            LIVE_ROOT=<tree>: serve another tree's build (a base
//                                            worktree), measured by this bench)
// Prints figures and ratios from one run; asserts nothing.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { launchBrowser, openPage, openPersistent } from './browser.ts';
import { BENCH_RELAY_TOKEN, signIn, startInspector, stopInspector } from './inspector-serve.ts';
import { relayBacklogFile } from './relay-backlog-file.ts';
import { probeWorkers, reportProfiles } from './worker-probe.ts';

const ROOT = resolve(process.env.LIVE_ROOT ?? resolve(fileURLToPath(new URL('.', import.meta.url)), '../..'));
// 1M on request: LIVE_SIZES=1000,20000,100000,1000000.
const SIZES = (process.env.LIVE_SIZES ?? '1000,20000,100000').split(',').map(Number);
/** `disk` (default): the measured page runs in a browser with an on-disk profile, as users
 *  have; `memory`: an off-the-record window (IndexedDB in memory), as before 2026-12-05. */
const PROFILE = process.env.LIVE_PROFILE ?? 'disk';
const SAMPLES = Number(process.env.LIVE_SAMPLES ?? 50);
/** Opens of the backlog timed each way (at rest, at once) for sizes up to 20k, at most one above (0: none): one run's figure is the median. */
const OPENS = Number(process.env.LIVE_OPENS ?? 3);
const PORT = Number(process.env.LIVE_PORT ?? 5204);
/** Pause between one call being counted and the next call (calls are spaced, not a burst). */
const SPACING_MS = 150;
/** Calls made at most while the backlog is still being written (after it is listed). */
const STORING_SAMPLES = Number(process.env.LIVE_STORING_SAMPLES ?? 20);
/** Where to write the workers' CPU profiles of each size's first open (until listed); none when unset. */
const CPU_PROFILE = process.env.LIVE_CPU_PROFILE;
/** `listing` (default): profile from navigating until listed; `storing`: from listed until stored and acknowledged. */
const CPU_PROFILE_PHASE = process.env.LIVE_CPU_PROFILE_PHASE ?? 'listing';
/** Where to write a Chrome trace (every thread: the page, the workers, IndexedDB) of each size's storing phase; none when unset. */
const TRACE = process.env.LIVE_TRACE;
/** Read the page's counters around each call once stored (see the header). */
const PAGE_METRICS = process.env.LIVE_PAGE_METRICS === '1';
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.execute', 'blink.user_timing', 'IndexedDB', 'disabled-by-default-v8.cpu_profiler', 'v8'];

// A Chrome trace through the page's DevTools session (the whole browser's threads); `stop`
// writes it where DevTools' Performance panel opens it.
async function startTrace(page: Page): Promise<{ stop(path: string): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => { for (const v of e.value) events.push(v); });
  const complete = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: TRACE_CATEGORIES, recordMode: 'recordContinuously' }, transferMode: 'ReportEvents' });
  return {
    async stop(path) {
      await cdp.send('Tracing.end');
      await complete;
      writeFileSync(path, JSON.stringify({ traceEvents: events }));
      await cdp.detach();
    },
  };
}

interface Sample { fromSend: number; fromAnswer: number }
/** The page's counters that one call moved (ms, or counts). */
type PageWork = Record<(typeof PAGE_COUNTERS)[number], number>;
const PAGE_COUNTERS = ['TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'RecalcStyleCount', 'LayoutCount'] as const;

// Chromium's cumulative counters of the page's main thread (durations in seconds, as ms).
async function pageCounters(cdp: import('@playwright/test').CDPSession): Promise<PageWork> {
  const { metrics } = await cdp.send('Performance.getMetrics') as { metrics: { name: string; value: number }[] };
  const out = {} as PageWork;
  for (const k of PAGE_COUNTERS) {
    const v = metrics.find((m) => m.name === k)?.value ?? NaN;
    out[k] = k.endsWith('Duration') ? v * 1000 : v;
  }
  return out;
}

export interface LiveResult { work: PageWork[]; listingWork: PageWork | null; storingWork: PageWork | null; storingSpanMs: number; heapPeakMb: number | null; n: number; restMs: number | null; backlogMs: number; shownMs: number; backlogLongest: number; backlogLong200: number; samples: Sample[]; storing: Sample[]; storedMs: number; missed: number; liveLongest: number }

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Installed in every document before its scripts: stamps each change of the status bar's
// exchange count (also as a performance mark named with the time), and records main-thread long tasks. A string, not a function: tsx wraps
// named inner functions in a helper the page does not have.
const PAGE_PROBE = `(() => {
  const live = window.__live = { counts: [], long: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) live.long.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
  let last = -1;
  const check = () => {
    const text = document.querySelector('[data-testid="count-exchanges"]')?.textContent ?? '';
    const m = /\\d[\\d,]*/.exec(text);
    const n = m ? Number(m[0].replace(/,/g, '')) : -1;
    if (n !== last) {
      last = n;
      const t = Date.now();
      live.counts.push({ n, t });
      performance.mark('count ' + n + ' @' + t); // lines a trace (LIVE_TRACE) up with the wall clock
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

let callId = 1;
const relayUrlOf = (origin: string) => `${origin}/relay/${BENCH_RELAY_TOKEN}/demo/mcp`;

// One 2026-07-28 tools/call of the demo's `busy` tool through the relay; the answer read whole.
async function callThroughRelay(url: string): Promise<{ sent: number; answered: number }> {
  const body = JSON.stringify({
    jsonrpc: '2.0', id: callId++, method: 'tools/call',
    params: { name: 'busy', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench-live', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
  });
  const sent = Date.now();
  const res = await fetch(url, { method: 'POST', body, headers: { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'busy' } });
  await res.text();
  const answered = Date.now();
  if (!res.ok) throw new Error(`the relay answered ${res.status}`);
  return { sent, answered };
}

const counts = (page: Page) => page.evaluate(() => (window as unknown as { __live: { counts: { n: number; t: number }[] } }).__live.counts);
const longTasks = (page: Page) => page.evaluate(() => (window as unknown as { __live: { long: number[] } }).__live.long.splice(0));

// Resolves to the page's stamp of the first count >= n, or null after `timeout` ms.
async function countedAt(page: Page, n: number, timeout: number): Promise<number | null> {
  const until = Date.now() + timeout;
  for (;;) {
    const hit = (await counts(page)).find((c) => c.n >= n);
    if (hit) return hit.t;
    if (Date.now() > until) return null;
    await sleep(20);
  }
}

// A server on a fresh copy of the backlog file, and a browser with a blank page (once the
// browser is at rest, or at once) ready to open it; `close` stops both and removes the copy.
async function openable(n: number, atRest: boolean) {
  const source = await relayBacklogFile(join(ROOT, '.bench'), n);
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-live-bench-'));
  const jsonl = join(dir, 'relay.jsonl');
  copyFileSync(source, jsonl); // the relay removes what the page acknowledges
  const { child, origin } = await startInspector(ROOT, PORT, jsonl);
  const total = n + 1; // with the warm-up call below
  let browser: Awaited<ReturnType<typeof launchBrowser>> | null = null;
  let persistent: import('@playwright/test').BrowserContext | null = null;
  const close = async () => {
    await browser?.close();
    await persistent?.close();
    await stopInspector(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Warmed (see the header): no page listens yet, so the relay files this call with the backlog.
    await callThroughRelay(relayUrlOf(origin));
    const viewport = { width: 1500, height: 900 };
    if (PROFILE === 'disk' && atRest) {
      const opened = await openPersistent(join(dir, 'profile'), { viewport, initScript: PAGE_PROBE });
      persistent = opened.context;
      await signIn(persistent.request, origin);
      return { page: opened.page, restMs: opened.restMs, origin, jsonl, total, close };
    }
    browser = await launchBrowser();
    const { page, restMs } = await openPage(browser, { viewport, initScript: PAGE_PROBE, atRest });
    await signIn(page.context().request, origin);
    return { page, restMs, origin, jsonl, total, close };
  } catch (err) {
    await close();
    throw err;
  }
}

// Navigates and resolves to the ms until the status bar counted n.
async function openOn(page: Page, origin: string, n: number): Promise<{ t0: number; listed: number }> {
  const t0 = Date.now();
  await page.goto(`${origin}/`);
  const listed = await countedAt(page, n, 900_000);
  if (listed === null) throw new Error(`the backlog of ${n} was not counted`);
  return { t0, listed };
}

// One more open of the backlog alone (no live calls after it): at rest, or in a new window at
// once, the browser's own work for the window still running (as the figure was taken before
// the benches waited for rest, kept for comparison).
async function openOnce(n: number, atRest: boolean): Promise<number> {
  const o = await openable(n, atRest);
  try {
    const { t0, listed } = await openOn(o.page, o.origin, o.total);
    return listed - t0;
  } finally {
    await o.close();
  }
}

async function measure(n: number): Promise<LiveResult> {
  const { page, origin, jsonl, restMs, total, close } = await openable(n, true);
  // The workers' heap, sampled (the analysis worker holds the session), and their CPU profile.
  const probe = await probeWorkers(page, { profile: CPU_PROFILE !== undefined && CPU_PROFILE_PHASE === 'listing' });
  try {
    // The page's counters from before navigating (they count from `Performance.enable`).
    const storingCdp = PAGE_METRICS ? await page.context().newCDPSession(page) : null;
    if (storingCdp) await storingCdp.send('Performance.enable');
    const { t0, listed } = await openOn(page, origin, total);
    if (CPU_PROFILE && CPU_PROFILE_PHASE === 'listing') reportProfiles(`${CPU_PROFILE}-${n}`, await probe.stopProfiles());
    if (CPU_PROFILE && CPU_PROFILE_PHASE === 'storing') await probe.startProfiles();
    const trace = TRACE ? await startTrace(page) : null;
    // The page's counters until listed, and from there over the storing phase (checks and
    // writes trailing the listing).
    const storingFrom = storingCdp ? await pageCounters(storingCdp) : null;
    const listingWork = storingFrom;
    const backlogLong = await longTasks(page);
    // The page's own start (status bar shown, whatever it counts) apart from the drain.
    const shown = (await counts(page)).find((c) => c.n >= 0)!.t - t0;
    let have = (await counts(page)).at(-1)!.n;
    const relayUrl = relayUrlOf(origin);
    // One call through the relay, timed until the status bar counts it.
    let missed = 0;
    const sample = async (into: Sample[]) => {
      const { sent, answered } = await callThroughRelay(relayUrl);
      const t = await countedAt(page, have + 1, 30_000);
      if (t === null) missed++;
      else into.push({ fromSend: t - sent, fromAnswer: t - answered });
      have = (await counts(page)).at(-1)!.n;
      await sleep(SPACING_MS);
    };
    // The backlog is listed before it is stored: calls made while it is being written, until
    // the relay's file is empty (every drained record stored and acknowledged).
    const acknowledged = () => statSync(jsonl).size === 0;
    const storing: Sample[] = [];
    while (!acknowledged() && storing.length < STORING_SAMPLES) await sample(storing);
    while (!acknowledged()) await sleep(50);
    const storedMs = Date.now() - t0;
    let storingWork: PageWork | null = null;
    if (storingCdp && storingFrom) {
      const to = await pageCounters(storingCdp);
      storingWork = Object.fromEntries(PAGE_COUNTERS.map((k) => [k, to[k] - storingFrom[k]])) as PageWork;
      await storingCdp.detach();
    }
    if (trace) await trace.stop(`${TRACE}-${n}.json`);
    if (CPU_PROFILE && CPU_PROFILE_PHASE === 'storing') reportProfiles(`${CPU_PROFILE}-${n}-storing`, await probe.stopProfiles());
    // Settled: nothing more is drained (the count stays at n for a moment).
    await sleep(1000);
    have = (await counts(page)).at(-1)!.n;
    const samples: Sample[] = [];
    const work: PageWork[] = [];
    const cdp = PAGE_METRICS ? await page.context().newCDPSession(page) : null;
    if (cdp) await cdp.send('Performance.enable');
    for (let i = 0; i < SAMPLES; i++) {
      const before = cdp ? await pageCounters(cdp) : null;
      await sample(samples);
      if (cdp && before) {
        const after = await pageCounters(cdp);
        work.push(Object.fromEntries(PAGE_COUNTERS.map((k) => [k, after[k] - before[k]])) as PageWork);
      }
    }
    await cdp?.detach();
    const liveLong = await longTasks(page);
    return {
      work, listingWork, storingWork, storingSpanMs: storedMs - (listed - t0), heapPeakMb: probe.heapPeakMb(), n, restMs, backlogMs: listed - t0, shownMs: shown, backlogLongest: Math.max(0, ...backlogLong), backlogLong200: backlogLong.filter((d) => d > 200).length,
      samples, storing, storedMs, missed, liveLongest: Math.max(0, ...liveLong),
    };
  } finally {
    await probe.detach();
    await close();
  }
}

export async function run(): Promise<LiveResult[]> {
  // The built page and compiled server (`npm start`'s check: rebuilt only when stale).
  const built = spawnSync(process.execPath, [join(ROOT, 'server/start.js'), '--build-only'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
  const results: LiveResult[] = [];
  for (const n of SIZES) {
    const r = await measure(n);
    // The machine's speed drifts by ±15% between minutes: more opens, interleaved, and the
    // medians (one of each for larger backlogs, which take a minute an open).
    const rest = [r.backlogMs];
    const once: number[] = [];
    const opens = n <= 20_000 ? OPENS : Math.min(OPENS, 1);
    for (let i = 0; i < opens; i++) {
      once.push(await openOnce(n, false));
      if (rest.length < opens) rest.push(await openOnce(n, true));
    }
    results.push(r);
    const send = r.samples.map((s) => s.fromSend);
    const answer = r.samples.map((s) => s.fromAnswer);
    const mb = (statSync(join(ROOT, '.bench', `relay-backlog-${n}.jsonl`)).size / 1048576).toFixed(1);
    console.log(`live relay: ${n} exchanges in the session (backlog ${mb} MB)`);
    const median = (xs: number[]) => pct(xs, 0.5);
    console.log(`  opening on the backlog: counted ${median(rest)} ms after navigating, the median of ${rest.length} (${rest.join(', ')} ms; goal at 20k: listed within 3 s); the first: status bar first shown at ${r.shownMs} ms, longest main-thread task ${r.backlogLongest.toFixed(0)} ms, ${r.backlogLong200} over 200 ms, stored and acknowledged ${r.storedMs} ms after navigating`);
    console.log(`    ${r.restMs === null ? "the browser's window was not seen at rest within 20 s (or /proc could not be read; timed anyway)" : `the browser's window came to rest ${r.restMs} ms after its first page opened`}; opened in a new window at once instead (the browser's own window work running): counted ${median(once)} ms after navigating, the median of ${once.length} (${once.join(', ')} ms)`);
    if (r.storing.length) {
      const a = r.storing.map((s) => s.fromAnswer);
      const f = r.storing.map((s) => s.fromSend);
      console.log(`  a call while the backlog was being written (${r.storing.length} samples): from the answer p50 ${pct(a, 0.5)} ms, p95 ${pct(a, 0.95)} ms, max ${Math.max(...a)} ms (in the order made: ${a.join(', ')} ms); from the send p50 ${pct(f, 0.5)} ms, p95 ${pct(f, 0.95)} ms (in the order made: ${f.join(', ')} ms)`);
    }
    console.log(`  storage: ${(n / (r.storedMs / 1000)).toFixed(0)} exchanges/s stored and acknowledged from navigating (${PROFILE === 'disk' ? 'on-disk profile' : 'off-the-record window'}); peak worker heap ${r.heapPeakMb === null ? 'not told by this Chromium' : `${r.heapPeakMb.toFixed(0)} MB`}`);
    console.log(`  a call through the relay, counted in the status bar (${r.samples.length} samples${r.missed ? `, ${r.missed} not counted within 30 s` : ''}): from the answer p50 ${pct(answer, 0.5)} ms, p95 ${pct(answer, 0.95)} ms, max ${Math.max(...answer)} ms; from the send p50 ${pct(send, 0.5)} ms, p95 ${pct(send, 0.95)} ms; longest main-thread task ${r.liveLongest.toFixed(0)} ms`);
    if (r.listingWork) {
      const w = r.listingWork;
      console.log(`  the page's work from navigating until listed: tasks ${w.TaskDuration.toFixed(0)} ms, script ${w.ScriptDuration.toFixed(0)} ms, style ${w.RecalcStyleDuration.toFixed(0)} ms (${w.RecalcStyleCount}), layout ${w.LayoutDuration.toFixed(0)} ms (${w.LayoutCount})`);
    }
    if (r.storingWork) {
      const w = r.storingWork;
      console.log(`  the page's work from listed to stored (${r.storingSpanMs} ms, the calls made in it included): tasks ${w.TaskDuration.toFixed(0)} ms, script ${w.ScriptDuration.toFixed(0)} ms, style ${w.RecalcStyleDuration.toFixed(0)} ms (${w.RecalcStyleCount}), layout ${w.LayoutDuration.toFixed(0)} ms (${w.LayoutCount})`);
    }
    if (r.work.length) {
      const med = (k: (typeof PAGE_COUNTERS)[number]) => pct(r.work.map((w) => w[k]), 0.5);
      const sum = (k: (typeof PAGE_COUNTERS)[number]) => r.work.reduce((a, w) => a + w[k], 0) / r.work.length;
      console.log(`  the page's work per call once stored (${r.work.length} calls, median / mean): tasks ${med('TaskDuration').toFixed(1)} / ${sum('TaskDuration').toFixed(1)} ms, script ${med('ScriptDuration').toFixed(1)} / ${sum('ScriptDuration').toFixed(1)} ms, style ${med('RecalcStyleDuration').toFixed(1)} / ${sum('RecalcStyleDuration').toFixed(1)} ms (${med('RecalcStyleCount')} recalcs), layout ${med('LayoutDuration').toFixed(1)} / ${sum('LayoutDuration').toFixed(1)} ms (${med('LayoutCount')} layouts)`);
    }
  }
  const base = results.find((r) => r.n === 1000);
  for (const r of results) {
    if (!base || r === base) continue;
    const p95 = (x: LiveResult) => pct(x.samples.map((s) => s.fromAnswer), 0.95);
    console.log(`  ratio p95 ${r.n} / 1000 (from the answer): ${(p95(r) / p95(base)).toFixed(2)}x (goal at 20k and 100k: p95 < 100 ms and at most 1.5x)`);
    const storingP95 = (x: LiveResult) => pct(x.storing.map((s) => s.fromAnswer), 0.95);
    // From the send as well: the answer's own arrival at the client wanders (a count can come
    // before it, by up to 270 ms while a backlog is written), which a ratio to a figure near 0 ms magnifies.
    const sendP95 = (xs: Sample[]) => pct(xs.map((s) => s.fromSend), 0.95);
    if (r.storing.length) console.log(`  ratio p95 ${r.n} while its backlog was being written / 1000 once stored: ${(storingP95(r) / p95(base)).toFixed(2)}x from the answer, ${(sendP95(r.storing) / sendP95(base.samples)).toFixed(2)}x from the send`);
  }
  const r20 = results.find((r) => r.n === 20_000);
  for (const r of results) {
    if (!r20 || r.n <= 20_000) continue;
    console.log(`  ratio backlog listed ${r.n} / 20000: ${(r.backlogMs / r20.backlogMs).toFixed(2)}x (goal at 100k: at most 6x); stored and acknowledged ${(r.storedMs / r20.storedMs).toFixed(2)}x`);
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
