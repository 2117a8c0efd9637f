// The benchmarks' browser: Debian's Chromium with the flags every run here uses, and pages
// to time that are opened in a browser at rest.
//
// Why at rest: Chromium does work of its own for each new browser window (a Playwright
// context): here (Chromium 156, headless) a renderer of its own UI (`--top-chrome-webui`)
// took 1.3-1.7 s of CPU in the first second or two after a context's first page, a third
// of a 2-core machine while a page was being timed; a second page in the same context
// cost it nothing. A user opens the inspector as a tab of a browser window that did that
// work long before, so a figure taken meanwhile measures the browser's window, not the page.
import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** A window of CPU counted as rest: under this much CPU (ms) in total across the browser's processes. */
const REST_CPU_MS = 20;
const WINDOW_MS = 250;
/** Consecutive quiet windows that make "at rest". */
const QUIET_WINDOWS = 4;
/** The longest we wait for rest; the run goes on after it, and says so. */
const REST_LIMIT_MS = 20_000;

/** Launches the benchmarks' Chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface PageAtRest {
  context: BrowserContext;
  /** A blank page of the context, to navigate to what is timed. */
  page: Page;
  /** How long the browser took to come to rest once the page was open (ms); null if not waited for, or not at rest within the limit. */
  restMs: number | null;
}

/**
 * A new context (a browser window) with one blank page, returned once the browser is at
 * rest again (see the header), or at once with `atRest: false` (to time a page beside the
 * browser's own work for the window; `restMs` is then null). `initScript` is installed in
 * the context before the page.
 */
export async function openPage(browser: Browser, opts: BrowserContextOptions & { initScript?: string; atRest?: boolean } = {}): Promise<PageAtRest> {
  const { initScript, atRest = true, ...contextOptions } = opts;
  const context = await browser.newContext(contextOptions);
  if (initScript !== undefined) await context.addInitScript({ content: initScript });
  const page = await context.newPage();
  if (!atRest) return { context, page, restMs: null };
  const t0 = Date.now();
  const rested = await untilAtRest();
  return { context, page, restMs: rested ? Date.now() - t0 : null };
}

/**
 * A browser with an on-disk profile (a persistent context, as a user's browser has: its
 * IndexedDB on disk, not in memory as in an off-the-record window) and one blank page,
 * returned once the browser is at rest (see the header). Closing the context closes it.
 */
export async function openPersistent(profileDir: string, opts: BrowserContextOptions & { initScript?: string } = {}): Promise<PageAtRest> {
  const { initScript, ...contextOptions } = opts;
  const context = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, ...contextOptions });
  if (initScript !== undefined) await context.addInitScript({ content: initScript });
  const page = context.pages()[0] ?? await context.newPage();
  const t0 = Date.now();
  const rested = await untilAtRest();
  return { context, page, restMs: rested ? Date.now() - t0 : null };
}

// Resolves true once Chromium's processes (all of them on this machine: the benches run
// one browser at a time) used under REST_CPU_MS in each of QUIET_WINDOWS windows in a row,
// false after REST_LIMIT_MS (or where /proc cannot be read: nothing is waited for).
async function untilAtRest(): Promise<boolean> {
  const until = Date.now() + REST_LIMIT_MS;
  let last = chromiumCpuMs();
  if (last === null) return false;
  let quiet = 0;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const now = chromiumCpuMs();
    if (now === null) return false;
    quiet = now - last < REST_CPU_MS ? quiet + 1 : 0;
    last = now;
    if (quiet >= QUIET_WINDOWS) return true;
  }
  return false;
}

// CPU time (user + system, ms) of every Chromium process alive now, or null without /proc.
// A process that ended between windows drops out of the sum; the next window then reads as
// quiet at worst once, and rest needs several in a row.
function chromiumCpuMs(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium')) continue;
      // Fields after the command name, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}
