// Two tabs opened at once on one relay backlog: the built inspector (`mrtr-inspector serve`,
// as live-relay.ts starts it) on a relay capture file of N exchanges, one browser with an
// on-disk profile (as users have), and two tabs of it navigated to the page together. Timed
// from navigating: until each tab's status bar counts all N, until the relay's file is empty
// (every record stored and acknowledged), and until the browser is at rest again, with the
// CPU the browser's processes used until then (a tab that reads and analyses its session
// again shows there). Builds are compared side by side, interleaved:
//   npx tsx test/bench/two-tabs-backlog.ts
//   (env: TWO_TABS_ROOTS=<built checkout>,<built checkout> (default: this one),
//    TWO_TABS_SIZE=20000, TWO_TABS_ROUNDS=3, LIVE_PORT=5204, CHROMIUM_PATH)
// Each root must be built (`npm run build` there). Prints figures; asserts nothing.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { openPersistent } from './browser.ts';
import { signIn, startInspector, stopInspector } from './inspector-serve.ts';
import { relayBacklogFile } from './relay-backlog-file.ts';

const HERE = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const ROOTS = (process.env.TWO_TABS_ROOTS ?? HERE).split(',').map((r) => resolve(r));
const N = Number(process.env.TWO_TABS_SIZE ?? 20_000);
const ROUNDS = Number(process.env.TWO_TABS_ROUNDS ?? 3);
const PORT = Number(process.env.LIVE_PORT ?? 5204);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Stamps each change of the status bar's exchange count (a string: tsx would wrap a function).
const COUNT_PROBE = `(() => {
  const counts = window.__counts = [];
  let last = -1;
  new MutationObserver(() => {
    const m = /\\d[\\d,]*/.exec(document.querySelector('[data-testid="count-exchanges"]')?.textContent ?? '');
    const n = m ? Number(m[0].replace(/,/g, '')) : -1;
    if (n !== last) { last = n; counts.push({ n, t: Date.now() }); }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

async function countedAt(page: Page, n: number): Promise<number> {
  for (;;) {
    const hit = (await page.evaluate(() => (window as unknown as { __counts: { n: number; t: number }[] }).__counts)).find((c) => c.n >= n);
    if (hit) return hit.t;
    await sleep(20);
  }
}

// CPU (user + system, ms) of the Chromium processes this bench started (descendants of this
// process: another session's browser on the machine is not counted).
function chromiumCpuMs(): number {
  const stats = new Map<number, { ppid: number; ticks: number; chromium: boolean }>();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(pid), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), chromium: stat.includes('(chromium)') });
    } catch {
      // gone meanwhile
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; hops++) {
      if (p === process.pid) return true;
      p = stats.get(p)?.ppid ?? 0;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, s] of stats) if (s.chromium && ours(pid)) ticks += s.ticks;
  return ticks * 10; // USER_HZ is 100 on Linux
}

// Resolves once the browser used under 20 ms of CPU in each of 4 windows of 250 ms in a row,
// to the time the quiet began.
async function atRest(): Promise<number> {
  let last = chromiumCpuMs();
  let quiet = 0;
  let since = Date.now();
  for (;;) {
    await sleep(250);
    const now = chromiumCpuMs();
    if (now - last < 20) quiet++;
    else { quiet = 0; since = Date.now(); }
    last = now;
    if (quiet >= 4) return since;
  }
}

interface Run { listedFirst: number; listedBoth: number; stored: number; settled: number; cpuMs: number }

async function once(root: string, source: string): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-two-tabs-'));
  const jsonl = join(dir, 'relay.jsonl');
  copyFileSync(source, jsonl);
  const { child, origin } = await startInspector(root, PORT, jsonl);
  const { context, page } = await openPersistent(join(dir, 'profile'), { viewport: { width: 1500, height: 900 }, initScript: COUNT_PROBE });
  try {
    await signIn(context.request, origin);
    const second = await context.newPage();
    await atRest();
    const cpu0 = chromiumCpuMs();
    const t0 = Date.now();
    await Promise.all([page.goto(`${origin}/`), second.goto(`${origin}/`)]);
    const listed = await Promise.all([countedAt(page, N), countedAt(second, N)]);
    while (statSync(jsonl).size > 0) await sleep(50);
    const stored = Date.now();
    const settled = await atRest();
    return { listedFirst: Math.min(...listed) - t0, listedBoth: Math.max(...listed) - t0, stored: stored - t0, settled: settled - t0, cpuMs: chromiumCpuMs() - cpu0 };
  } finally {
    await context.close();
    await stopInspector(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const source = await relayBacklogFile(join(HERE, '.bench'), N);
const runs = new Map<string, Run[]>(ROOTS.map((r) => [r, []]));
const load = [loadavg()[0]!];
for (let i = 0; i < ROUNDS; i++) {
  for (const root of ROOTS) {
    runs.get(root)!.push(await once(root, source));
    load.push(loadavg()[0]!);
  }
}
console.log(`two tabs opened at once on a ${N}-exchange relay backlog (on-disk profile), medians of ${ROUNDS}, interleaved; 1-min load ${load.map((l) => l.toFixed(1)).join(' → ')}`);
const keys: (keyof Run)[] = ['listedFirst', 'listedBoth', 'stored', 'settled', 'cpuMs'];
const base = runs.get(ROOTS[0]!)!;
for (const [root, rs] of runs) {
  const cells = keys.map((k) => {
    const m = median(rs.map((r) => r[k]));
    const ratio = root === ROOTS[0] ? '' : ` (${(m / median(base.map((r) => r[k]))).toFixed(2)}x)`;
    return `${k} ${m} ms${ratio} [${rs.map((r) => r[k]).join(', ')}]`;
  });
  console.log(`  ${root}: ${cells.join('; ')}`);
}
