// Worker time per appended exchange in a live session (a SessionModel fed as the relay and
// the service worker feed it), on a session already holding N exchanges. Each figure is
// over a run of appends, each followed by the analysis the coalescer would run:
//   - one at a time, complete: put, then analyse;
//   - pending then complete (how live capture records it): put pending, analyse, put
//     complete, analyse; both count for the one exchange;
//   - batches of 16 complete exchanges analysed once (what the 16 ms coalescing window
//     gives when exchanges arrive faster than that), per exchange.
// "Amortised" is the mean wall time over the run (garbage collection included); the CPU
// time of the run per exchange is printed beside it (on a loaded machine wall time also
// counts waiting for a core). Prints ratios to the 1 ms goal and to the first (smallest)
// session size; asserts nothing.
//
//   npx tsx test/bench/live-append.ts [N ...]          (default 10000 100000)
//   BENCH_APPENDS=1000 sets the run length (default 1000)
//   BENCH_COMPARE_MODEL=/path/to/worker/view/session-model.ts adds that build, at 10k only
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generateCapture } from './generate-capture.js';
import { importHarChunks } from '../../worker/capture/index.js';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { SessionModel } from '../../worker/view/session-model.js';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 1000);
const BATCH = 16;
const GOAL_MS = 1;

interface Model { put(r: Iterable<unknown>): void; built(k: (u: string) => readonly never[], v: number): Promise<unknown> }

function* chunks(text: string) {
  for (let i = 0; i < text.length; i += 1 << 20) yield text.slice(i, i + (1 << 20));
}

async function load(n: number): Promise<ExchangeRecord[]> {
  mkdirSync('.bench', { recursive: true });
  const file = join('.bench', `capture-${n}.har`);
  if (!existsSync(file)) await generateCapture(file, n);
  const out = importHarChunks(chunks(readFileSync(file, 'utf8')));
  if (out === null || !out.ok) throw new Error('bench capture did not import');
  return out.exchanges.map((r) => ({ ...r, session: 'bench', state: 'complete' as const }));
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const gc = (globalThis as { gc?: () => void }).gc;

type Figures = Record<'complete' | 'pending' | 'batch', number>;
/** Means of the first size run, for the ratios. */
let reference: { n: number; figures: Figures } | null = null;

/** CPU time of this process (every thread, so parallel GC counts) since `from`, in ms. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

/** `xs`: wall time of each run step, which appended `each` exchanges. */
function line(label: string, xs: number[], each: number, cpuMs: number, key: keyof Figures, figures: Figures): void {
  const m = mean(xs) / each;
  figures[key] = m;
  const ref = reference && reference.figures[key] > 0 ? `, ${(m / reference.figures[key]).toFixed(2)}x the ${reference.n / 1000}k figure` : '';
  const cpu = cpuMs / (xs.length * each);
  console.log(`    ${label}: mean ${m.toFixed(3)} ms per exchange (${(m / GOAL_MS).toFixed(2)}x the ${GOAL_MS} ms goal${ref}; CPU ${cpu.toFixed(3)} ms); per step p50 ${pct(xs, 0.5).toFixed(2)} ms, p95 ${pct(xs, 0.95).toFixed(2)} ms`);
}

async function measure(label: string, make: (rs: ExchangeRecord[]) => Model, records: ExchangeRecord[], base: number, appends: number): Promise<Figures> {
  const model = make(records.slice(0, base));
  let t0 = process.hrtime.bigint();
  await model.built(() => [], 0);
  console.log(`  ${label}, ${base} exchanges: first analysis ${ms(t0).toFixed(0)} ms; ${appends} appends per run`);
  const figures: Figures = { complete: 0, pending: 0, batch: 0 };
  let next = base;

  gc?.();
  let cpu0 = process.cpuUsage();
  const whole: number[] = [];
  for (let i = 0; i < appends; i++) {
    const r = records[next++];
    t0 = process.hrtime.bigint();
    model.put([r]);
    await model.built(() => [], 0);
    whole.push(ms(t0));
  }
  line('one at a time, complete', whole, 1, cpuSince(cpu0), 'complete', figures);

  gc?.();
  cpu0 = process.cpuUsage();
  const streamed: number[] = [];
  for (let i = 0; i < appends; i++) {
    const r = records[next++];
    t0 = process.hrtime.bigint();
    model.put([{ ...r, state: 'pending', response: undefined, endedAt: undefined }]);
    await model.built(() => [], 0);
    model.put([r]);
    await model.built(() => [], 0);
    streamed.push(ms(t0));
  }
  line('pending then complete (two analyses)', streamed, 1, cpuSince(cpu0), 'pending', figures);

  gc?.();
  cpu0 = process.cpuUsage();
  const batches: number[] = [];
  for (let i = 0; i + BATCH <= appends; i += BATCH) {
    const rs = records.slice(next, next + BATCH);
    next += BATCH;
    t0 = process.hrtime.bigint();
    model.put(rs);
    await model.built(() => [], 0);
    batches.push(ms(t0));
  }
  line(`batches of ${BATCH}, analysed once`, batches, BATCH, cpuSince(cpu0), 'batch', figures);
  return figures;
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}${gc ? '' : ' (run with node --expose-gc to start each run from a collected heap)'}`);
for (const n of sizes.length ? sizes : [10_000, 100_000]) {
  const records = await load(n + 3 * APPENDS);
  console.log(`live append: session of ${n} exchanges`);
  const figures = await measure('engine (this build)', (rs) => new SessionModel(rs as never) as unknown as Model, records, n, APPENDS);
  reference ??= { n, figures };
  const other = process.env.BENCH_COMPARE_MODEL;
  if (other && n <= 10_000) {
    const mod = await import(other);
    await measure(`whole re-analysis (${other})`, (rs) => new mod.SessionModel(rs) as Model, records, n, 16);
  }
}
