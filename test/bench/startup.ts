// Start-up to first page, side by side, interleaved: the installed package
// (`npm pack`, `npm install --omit=dev --offline`, then its bin), `npm start` in the
// repository with a fresh build (server/start.js: no build, node:http), and the `npm start`
// this replaced (a `vite build` on every start, then `vite preview` with the plugins).
// Also prints the tarball's and the install's sizes. Prints figures; asserts nothing.
// Run: npx tsx test/bench/startup.ts   (BENCH_STARTUP_ROUNDS, default 3)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { packAndInstall, ROOT, startPrinting, type StartedInspector } from '../support/packed-install.js';

const CONFIG = join(ROOT, 'vite.config.ts');

// The replaced start, run as a child of this file: build every time, then vite preview.
async function previousStart(port: number): Promise<void> {
  await build({ configFile: CONFIG, logLevel: 'warn' });
  const server = await preview({ configFile: CONFIG, preview: { host: '127.0.0.1', port, strictPort: true } });
  process.once('SIGTERM', () => void server.close().finally(() => process.exit(0)));
}

// Time from spawn to the first 200 for `/` (the banner is printed before the port answers
// in none of the three, but the page's answer is what the user waits for).
async function timeToPage(start: () => Promise<StartedInspector>): Promise<number> {
  const t0 = performance.now();
  const s = await start();
  for (;;) {
    const ok = await fetch(`${s.origin}/`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - t0;
  await s.stop();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-bench-startup-'));
  try {
    const installed = packAndInstall(dir);
    const env = { ...process.env, MRTR_RELAY_JSONL: join(dir, 'capture', 'relay.jsonl') };
    const rounds = Number(process.env.BENCH_STARTUP_ROUNDS ?? 3);
    const times: Record<'installed' | 'npmStart' | 'previous', number[]> = { installed: [], npmStart: [], previous: [] };
    for (let i = 0; i < rounds; i++) {
      times.installed.push(await timeToPage(() => startPrinting(installed.bin, ['--port', '0'], { cwd: installed.prefix, env })));
      times.npmStart.push(await timeToPage(() => startPrinting(process.execPath, ['server/start.js', '--port', '0'], { cwd: ROOT, env })));
      // The previous start prints Vite's banner; the relay's banner comes with it.
      times.previous.push(await timeToPage(() => startPrinting(process.execPath, ['--import', 'tsx', 'test/bench/startup.ts', '--previous-start'], { cwd: ROOT, env })));
    }
    const [a, b, c] = [median(times.installed), median(times.npmStart), median(times.previous)];
    console.log(`start-up to first page (${rounds} interleaved rounds, medians):`);
    console.log(`  package: tarball ${(installed.tarballBytes / 1048576).toFixed(2)} MiB, installed ${(installed.installedBytes / 1048576).toFixed(1)} MiB (node_modules of an empty folder)`);
    console.log(`  installed package (mrtr-inspector):  ${a.toFixed(0)} ms   [${times.installed.map((t) => t.toFixed(0)).join(', ')}]`);
    console.log(`  npm start, build fresh:              ${b.toFixed(0)} ms   [${times.npmStart.map((t) => t.toFixed(0)).join(', ')}]`);
    console.log(`  previous npm start (build + vite preview): ${c.toFixed(0)} ms   [${times.previous.map((t) => t.toFixed(0)).join(', ')}]`);
    console.log(`  ratio installed / previous npm start: ${(a / c).toFixed(3)}x; npm start now / before: ${(b / c).toFixed(3)}x`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--previous-start')) await previousStart(0);
else if (process.argv[1]?.endsWith('startup.ts')) await run();
