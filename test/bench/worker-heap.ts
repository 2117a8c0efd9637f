// The analysis worker's heap for an N-exchange session, beside the CLI's peak on the same
// file. The worker's session (SessionModel + its engine) is the same plain TypeScript in
// Node as in the browser's worker, so its heap is measured here: records loaded as storage
// pages hand them over, analysed once, then a full GC, and `heapUsed` read. The CLI runs
// `mrtr-inspector lint` on the HAR with rss-report.js preloaded (peak RSS of the process).
// Prints figures; asserts nothing.
//
//   node --expose-gc --import tsx test/bench/worker-heap.ts [N ...]     (default 100000)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCapture } from './generate-capture.js';
import { importHarChunks } from '../../worker/capture/index.js';
import type { StoredExchange } from '../../worker/storage/index.js';
import { SessionModel } from '../../worker/view/session-model.js';

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (b: number) => (b / (1 << 20)).toFixed(0);

function* chunks(text: string) {
  for (let i = 0; i < text.length; i += 1 << 20) yield text.slice(i, i + (1 << 20));
}

async function fileOf(n: number): Promise<string> {
  mkdirSync('.bench', { recursive: true });
  const file = join('.bench', `capture-${n}.har`);
  if (!existsSync(file)) await generateCapture(file, n);
  return file;
}

function cliPeak(file: string): { rssKb: number; ms: number } {
  const t0 = Date.now();
  const run = spawnSync(process.execPath, ['--import', './test/bench/rss-report.js', 'cli/bin.js', 'lint', file, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const m = /BENCH_MAX_RSS_KB=(\d+)/.exec(run.stderr ?? '');
  return { rssKb: m ? Number(m[1]) : NaN, ms: Date.now() - t0 };
}

async function workerHeap(file: string): Promise<{ before: number; loaded: number; built: number; records: number; bytes: number }> {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  let records: StoredExchange[] | null;
  {
    const out = importHarChunks(chunks(readFileSync(file, 'utf8')));
    if (out === null || !out.ok) throw new Error('bench capture did not import');
    records = out.exchanges.map((r) => ({ ...r, session: 'bench' }));
  }
  const count = records.length;
  const model = new SessionModel();
  // As the worker loads a session: storage pages of 500.
  for (let i = 0; i < records.length; i += 500) model.put(records.slice(i, i + 500));
  records = null;
  gc?.();
  const loaded = process.memoryUsage().heapUsed;
  await model.built(() => [], 0);
  gc?.();
  const built = process.memoryUsage().heapUsed;
  let bytes = 0;
  for (const r of model.records.values()) bytes += (r.request.body?.length ?? 0) + (r.response?.body?.length ?? 0) + (r.response?.events ?? []).reduce((a, e) => a + e.data.length, 0);
  if (model.records.size !== count) throw new Error('model lost records');
  return { before, loaded, built, records: count, bytes };
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (!gc) console.log('(run with node --expose-gc for figures after a full GC)');
for (const n of sizes.length ? sizes : [100_000]) {
  const file = await fileOf(n);
  const w = await workerHeap(file);
  console.log(`worker heap, ${w.records} exchanges (${mb(w.bytes)} MB of body text held): records loaded +${mb(w.loaded - w.before)} MB, analysed +${mb(w.built - w.before)} MB`);
  const cli = cliPeak(file);
  console.log(`  CLI lint on the same file: peak RSS ${mb(cli.rssKb * 1024)} MB (${(cli.ms / 1000).toFixed(1)} s); worker heap / CLI peak = ${((w.built - w.before) / (cli.rssKb * 1024)).toFixed(2)}`);
}
