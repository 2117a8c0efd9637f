// Worker time per appended exchange in a live session (a SessionModel fed one exchange at
// a time, as the relay and the service worker feed it), on a session already holding N
// exchanges. Two ways in: each exchange put once, complete; or put pending first, then
// complete (how live capture records it). Prints figures; asserts nothing.
//
//   npx tsx test/bench/live-append.ts [N ...]          (default 10000 100000)
//   BENCH_COMPARE_MODEL=/path/to/worker/view/session-model.ts adds that build, at 10k only
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCapture } from './generate-capture.js';
import { importHarChunks } from '../../worker/capture/index.js';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { SessionModel } from '../../worker/view/session-model.js';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 200);

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
const show = (xs: number[]) => `mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2)} ms, p50 ${pct(xs, 0.5).toFixed(2)} ms, p95 ${pct(xs, 0.95).toFixed(2)} ms`;

async function measure(label: string, make: (rs: ExchangeRecord[]) => Model, records: ExchangeRecord[], base: number, appends: number): Promise<void> {
  const model = make(records.slice(0, base));
  let t0 = process.hrtime.bigint();
  await model.built(() => [], 0);
  const first = ms(t0);
  const whole: number[] = [];
  const streamed: number[] = [];
  for (let i = 0; i < appends; i++) {
    const r = records[base + i];
    const pending = i % 2 === 1;
    t0 = process.hrtime.bigint();
    if (pending) {
      model.put([{ ...r, state: 'pending', response: undefined, endedAt: undefined }]);
      await model.built(() => [], 0);
    }
    model.put([r]);
    await model.built(() => [], 0);
    (pending ? streamed : whole).push(ms(t0));
  }
  console.log(`  ${label}, ${base} exchanges: first analysis ${first.toFixed(0)} ms`);
  console.log(`    append complete (${whole.length}): ${show(whole)}`);
  console.log(`    append pending then complete (${streamed.length}): ${show(streamed)}`);
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const n of sizes.length ? sizes : [10_000, 100_000]) {
  const records = await load(n + APPENDS);
  console.log(`live append: session of ${n} exchanges, ${APPENDS} appended (half of them put pending first)`);
  await measure('engine (this build)', (rs) => new SessionModel(rs as never) as unknown as Model, records, n, APPENDS);
  const other = process.env.BENCH_COMPARE_MODEL;
  if (other && n <= 10_000) {
    const mod = await import(other);
    await measure(`whole re-analysis (${other})`, (rs) => new mod.SessionModel(rs) as Model, records, n, 10);
  }
}
