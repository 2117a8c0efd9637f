// Core benchmark: the CLI's whole-process time and peak memory on a generated capture,
// as ratios against a bare JSON.parse of the same file, measured side by side.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generateCapture } from './generate-capture.js';

interface Run { ms: number; rssKb: number; status: number | null }

function runNode(args: string[]): Run {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', new URL('./rss-report.js', import.meta.url).pathname, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const m = /BENCH_MAX_RSS_KB=(\d+)/.exec(r.stderr ?? '');
  if (r.status !== 0 && r.status !== 1) throw new Error(`benchmarked process failed (${r.status}): ${r.stderr?.slice(0, 500)}`);
  return { ms, rssKb: m ? Number(m[1]) : NaN, status: r.status };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs the core benchmark and prints its figures. */
export async function benchCore(exchanges: number, repeats: number): Promise<{ timeRatio: number; memRatio: number }> {
  const dir = '.bench';
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `capture-${exchanges}.har`);
  let key = 'mrtr-inspector-bench-key-0123456789abcdef';
  if (!existsSync(file)) key = await generateCapture(file, exchanges);
  const size = statSync(file).size;
  const base: Run[] = [];
  const keyed: Run[] = [];
  const plain: Run[] = [];
  const empty: Run[] = [];
  for (let i = 0; i < repeats; i++) {
    // Interleaved so that machine noise hits every side alike.
    base.push(runNode([new URL('./parse-only.js', import.meta.url).pathname, file]));
    plain.push(runNode(['cli/bin.js', 'lint', file, '--format', 'json', '--output', '/dev/null']));
    keyed.push(runNode(['cli/bin.js', 'lint', file, '--format', 'json', '--output', '/dev/null', '--key', key]));
    empty.push(runNode(['-e', '0']));
  }
  const mb = (b: number) => (b / 1048576).toFixed(1) + ' MB';
  const baseMs = median(base.map((r) => r.ms));
  const baseRss = median(base.map((r) => r.rssKb)) * 1024;
  const nodeRss = median(empty.map((r) => r.rssKb)) * 1024;
  console.log(`core: ${exchanges} exchanges, capture ${mb(size)}, ${repeats} interleaved runs each (medians)`);
  console.log(`  bare JSON.parse process: ${baseMs.toFixed(0)} ms, peak RSS ${mb(baseRss)} (${(baseRss / size).toFixed(2)}x the file); an empty node process: ${mb(nodeRss)}`);
  let timeRatio = 0;
  let memRatio = 0;
  for (const [label, runs] of [['without a key', plain], ['with --key (every token verified)', keyed]] as const) {
    const ms = median(runs.map((r) => r.ms));
    const rss = median(runs.map((r) => r.rssKb)) * 1024;
    timeRatio = ms / baseMs;
    memRatio = rss / size;
    console.log(`  mrtr-inspector lint --format json, ${label}: ${ms.toFixed(0)} ms, peak RSS ${mb(rss)}`);
    console.log(`    time ratio to JSON.parse: ${timeRatio.toFixed(2)}x (goal <= 3x); peak memory / file size: ${memRatio.toFixed(2)}x (goal <= 4x)`);
  }
  return { timeRatio, memRatio };
}
