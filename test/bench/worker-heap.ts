// The analysis worker's heap for an N-exchange session, beside the CLI's peak on the same
// file. The worker's session (SessionModel + its engine) is the same plain TypeScript in
// Node as in the browser's worker, so its heap is measured here: records loaded as storage
// pages hand them over, analysed once, then a full GC, and `heapUsed` read; once holding
// whole records (as before bodies stayed in storage) and once lean. The CLI runs
// `mrtr-inspector lint` on the HAR with rss-report.js preloaded (peak RSS of the process).
// Then times a free-text search over the lean session. Prints figures; asserts nothing.
//
//   node --expose-gc --import tsx test/bench/worker-heap.ts [N ...]     (default 100000)
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCapture } from './generate-capture.js';
import { importHarChunks } from '../../worker/capture/index.js';
import type { StoredExchange } from '../../worker/storage/index.js';
import { searchedList } from '../../worker/view/body-reads.js';
import { SessionModel, type BodyStore } from '../../worker/view/session-model.js';

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

/** A body store that holds nothing: the heap figure is the worker's, not storage's. */
const noBodies: BodyStore = { async getExchanges(ids) { return ids.map(() => undefined); } };

async function workerHeap(file: string, lean: boolean): Promise<{ before: number; loaded: number; built: number; records: number; bytes: number }> {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  let records: StoredExchange[] | null = readRecords(file);
  const count = records.length;
  let bytes = 0;
  for (const r of records) bytes += (r.request.body?.length ?? 0) + (r.response?.body?.length ?? 0) + (r.response?.events ?? []).reduce((a, e) => a + e.data.length, 0);
  // Lean: as the worker holds a stored session (bodies stay in IndexedDB); whole: as it
  // did before, and as it still holds records without a body store.
  const model = new SessionModel([], lean ? { bodies: noBodies } : {});
  // As the worker loads a session: storage pages of 500.
  for (let i = 0; i < records.length; i += 500) model.put(records.slice(i, i + 500));
  records = null;
  gc?.();
  const loaded = process.memoryUsage().heapUsed;
  await model.built(() => [], 0);
  gc?.();
  const built = process.memoryUsage().heapUsed;
  if (model.records.size !== count) throw new Error('model lost records');
  return { before, loaded, built, records: count, bytes };
}

function readRecords(file: string): StoredExchange[] {
  const out = importHarChunks(chunks(readFileSync(file, 'utf8')));
  if (out === null || !out.ok) throw new Error('bench capture did not import');
  return out.exchanges.map((r, seq) => ({ ...r, seq, session: 'bench' }));
}

/** Free-text search over a lean session, its bodies read from an in-memory store (so this
 *  times the matching, not IndexedDB): a first word, the same again, then a longer one. */
async function searchTimes(file: string): Promise<{ first: number; again: number; longer: number; hits: number }> {
  const records = readRecords(file);
  const db = new Map(records.map((r) => [r.id, r]));
  const store: BodyStore = { async getExchanges(ids) { return ids.map((id) => db.get(id)); } };
  const model = new SessionModel(records, { bodies: store });
  const b = await model.built(() => [], 0);
  const time = async (filter: string) => {
    const t0 = performance.now();
    const list = await searchedList(b, filter);
    return { ms: performance.now() - t0, hits: list.stats.conversations };
  };
  const first = await time('book_f');
  const again = await time('book_f');
  const longer = await time('book_flight');
  return { first: first.ms, again: again.ms, longer: longer.ms, hits: longer.hits };
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (!gc) console.log('(run with node --expose-gc for figures after a full GC)');
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
for (const n of sizes.length ? sizes : [100_000]) {
  const file = await fileOf(n);
  const whole = await workerHeap(file, false);
  const lean = await workerHeap(file, true);
  console.log(`worker heap, ${lean.records} exchanges (${mb(lean.bytes)} MB of body text in the file):`);
  console.log(`  whole records (before): loaded +${mb(whole.loaded - whole.before)} MB, analysed +${mb(whole.built - whole.before)} MB`);
  console.log(`  lean records (bodies in storage): loaded +${mb(lean.loaded - lean.before)} MB, analysed +${mb(lean.built - lean.before)} MB; lean / whole = ${((lean.built - lean.before) / (whole.built - whole.before)).toFixed(2)}`);
  const cli = cliPeak(file);
  const peak = cli.rssKb * 1024;
  console.log(`  CLI lint on the same file: peak RSS ${mb(peak)} MB (${(cli.ms / 1000).toFixed(1)} s); worker heap / CLI peak = ${((whole.built - whole.before) / peak).toFixed(2)} whole, ${((lean.built - lean.before) / peak).toFixed(2)} lean`);
  const s = await searchTimes(file);
  console.log(`  search "book_f" over ${n} exchanges: ${s.first.toFixed(0)} ms; again ${s.again.toFixed(0)} ms; "book_flight" then ${s.longer.toFixed(0)} ms (${s.hits} conversations)`);
}
