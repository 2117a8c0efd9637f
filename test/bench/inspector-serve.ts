// The built inspector (`mrtr-inspector serve`) for the browser benches that open the page on a
// relay backlog, and the sign-in a measured browser needs first. The page opens only for a
// browser that opened the link printed at start (server/relay/page-login.ts): any other gets
// the locked page, so a bench that skipped this waited for a backlog that was never drained
// (live-relay "stalled at 1k" on main and on the scale-store branch alike, 2026-12-05).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';

/** The relay token external clients put in the relay URL. */
export const BENCH_RELAY_TOKEN = 'bench-live-relay-token-0123456789';
/** The page link's token, traded for the page cookie by `signIn`. */
export const BENCH_PAGE_TOKEN = 'bench-live-relay-page-token-0123456789';

export interface ServedInspector {
  child: ChildProcess;
  origin: string;
}

/** Starts `cli/bin.js serve` of the build in `root` on `port` (0: a free one), relaying into
 *  `jsonl`; resolves once it printed its banner, with the origin the banner names. */
export async function startInspector(root: string, port: number, jsonl: string): Promise<ServedInspector> {
  const child = spawn(process.execPath, [join(root, 'cli/bin.js'), 'serve', '--port', String(port)], {
    env: { ...process.env, MRTR_RELAY_JSONL: jsonl, MRTR_RELAY_TOKEN: BENCH_RELAY_TOKEN, MRTR_PAGE_TOKEN: BENCH_PAGE_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => { out += String(d); });
  const origin = await new Promise<string>((ok, fail) => {
    child.stdout!.on('data', (d) => {
      out += String(d);
      const at = /Inspector:\s+(http:\/\/[^/\s]+)\//.exec(out);
      if (at && out.includes('Relay URL')) ok(at[1]!);
    });
    child.once('exit', (code) => fail(new Error(`the inspector exited (${code}): ${out}`)));
  });
  return { child, origin };
}

export async function stopInspector(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/**
 * Lets a browser in as a developer's is, by the link printed at start, without loading the
 * page (which would start draining the backlog before it is timed): the page token is traded
 * for the page cookie through `request`, a browser context's request, which shares its
 * cookie jar. Throws when the inspector does not answer with the sign-in's redirect.
 */
export async function signIn(request: APIRequestContext, origin: string): Promise<void> {
  const r = await request.get(`${origin}/?token=${BENCH_PAGE_TOKEN}`, { maxRedirects: 0 });
  if (r.status() !== 303) throw new Error(`signing in at ${origin} answered ${r.status()}, not the 303 of a good page token`);
}
