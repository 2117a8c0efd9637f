// Core benchmark (design.md, Performance, Ingest): the CLI's whole-process time and peak
// memory on a generated capture, as ratios against a bare JSON.parse of the same file,
// measured side by side: every side runs once per round, in turn, so machine noise hits
// all alike. Nothing here asserts a time.
//
// BENCH_COMPARE_BIN=path/to/bin.js adds another build of the CLI (say, before a change)
// to every round, so a before/after pair is measured in the same machine state.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generateBodiesCapture, generateCapture } from './generate-capture.js';
import { generateChromeHar } from './generate-chrome-har.js';

/** The capture generators: `rounds`, many small interleaved multi-round calls with SDK
 *  HMAC tokens; `bodies`, large bodies, mostly SSE, one to ten rounds, JWS tokens;
 *  `chrome`, a HAR as Chrome DevTools saves one (pretty printed, every header, base64
 *  event streams, opaque tokens), written by a generator in another style. */
export const SHAPES = {
  rounds: { file: (n: number) => `capture-${n}.har`, generate: generateCapture },
  bodies: { file: (n: number) => `bodies-${n}.har`, generate: generateBodiesCapture },
  chrome: { file: (n: number) => `chrome-${n}.har`, generate: generateChromeHar },
} as const;
export type Shape = keyof typeof SHAPES;

interface Run { ms: number; cpuMs: number; rssKb: number; status: number | null }

function runNode(args: string[]): Run {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', new URL('./rss-report.js', import.meta.url).pathname, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const rss = /BENCH_MAX_RSS_KB=(\d+)/.exec(r.stderr ?? '');
  const cpu = /BENCH_CPU_US=(\d+)/.exec(r.stderr ?? '');
  if (r.status !== 0 && r.status !== 1) throw new Error(`benchmarked process failed (${r.status}): ${r.stderr?.slice(0, 500)}`);
  return { ms, cpuMs: cpu ? Number(cpu[1]) / 1000 : NaN, rssKb: rss ? Number(rss[1]) : NaN, status: r.status };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (b: number) => (b / 1048576).toFixed(1) + ' MB';
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/** A side of the comparison: a label and the node arguments of one run. */
interface Side { label: string; args: string[]; runs: Run[] }

/** What one generator's run measured: the plain lint against the bare JSON.parse process. */
export interface CoreRatios { shape: Shape; exchanges: number; bytes: number; timeRatio: number; cpuRatio: number; memRatio: number }

/** Runs the core benchmark on one generator's capture and prints its figures; returns the
 *  ratios of the plain lint (no key). */
export async function benchCore(exchanges: number, repeats: number, shape: Shape = 'rounds'): Promise<CoreRatios> {
  const dir = '.bench';
  mkdirSync(dir, { recursive: true });
  const file = join(dir, SHAPES[shape].file(exchanges));
  const key = 'mrtr-inspector-bench-key-0123456789abcdef';
  if (!existsSync(file)) await SHAPES[shape].generate(file, exchanges);
  const size = statSync(file).size;
  const lint = (bin: string, withKey: boolean) => [bin, 'lint', file, '--format', 'json', '--output', '/dev/null', ...(withKey ? ['--key', key] : [])];
  const base: Side = { label: 'bare JSON.parse', args: [new URL('./parse-only.js', import.meta.url).pathname, file], runs: [] };
  const empty: Side = { label: 'empty node', args: ['-e', '0'], runs: [] };
  const sides: Side[] = [
    { label: 'without a key', args: lint('cli/bin.js', false), runs: [] },
    { label: 'with --key (every token verified)', args: lint('cli/bin.js', true), runs: [] },
  ];
  const other = process.env.BENCH_COMPARE_BIN;
  if (other) {
    sides.push({ label: `without a key, ${other}`, args: lint(other, false), runs: [] });
    sides.push({ label: `with --key, ${other}`, args: lint(other, true), runs: [] });
  }
  const startLoad = load();
  for (let i = 0; i < repeats; i++) {
    for (const s of [base, ...sides, empty]) s.runs.push(runNode(s.args));
  }
  const baseMs = median(base.runs.map((r) => r.ms));
  const baseCpu = median(base.runs.map((r) => r.cpuMs));
  const baseRss = median(base.runs.map((r) => r.rssKb)) * 1024;
  const nodeRss = median(empty.runs.map((r) => r.rssKb)) * 1024;
  console.log(`core (${shape} shape): ${exchanges} exchanges, capture ${mb(size)}, ${repeats} interleaved rounds (medians); load average ${startLoad} at the start, ${load()} at the end`);
  console.log(`  bare JSON.parse process: ${baseMs.toFixed(0)} ms (CPU ${baseCpu.toFixed(0)} ms), peak RSS ${mb(baseRss)} (${(baseRss / size).toFixed(2)}x the file); an empty node process: ${mb(nodeRss)}`);
  const ratios: CoreRatios[] = [];
  for (const s of sides) {
    const ms = median(s.runs.map((r) => r.ms));
    const cpu = median(s.runs.map((r) => r.cpuMs));
    const rss = median(s.runs.map((r) => r.rssKb)) * 1024;
    ratios.push({ shape, exchanges, bytes: size, timeRatio: ms / baseMs, cpuRatio: cpu / baseCpu, memRatio: rss / size });
    console.log(`  mrtr-inspector lint --format json, ${s.label}: ${ms.toFixed(0)} ms (CPU ${cpu.toFixed(0)} ms), peak RSS ${mb(rss)}`);
    console.log(`    time ratio to JSON.parse: ${(ms / baseMs).toFixed(2)}x (goal <= 2.5x; CPU ${(cpu / baseCpu).toFixed(2)}x); peak memory / file size: ${(rss / size).toFixed(2)}x (goal <= 4x)`);
  }
  return ratios[0];
}
