// `npm run bench`: prints figures (ratios measured side by side in one run). Not a test:
// nothing here asserts a time.
import { existsSync } from 'node:fs';
import { benchCore, type CoreRatios, type Shape } from './core.js';

// The design's figure is for 100k exchanges (a ~175 MB capture); the second generator's
// default size gives a file of about 100 MB with far fewer, larger exchanges.
const exchanges = Number(process.env.BENCH_EXCHANGES ?? 100_000);
const bodies = Number(process.env.BENCH_BODIES_EXCHANGES ?? 14_000);
// The Chrome-style HAR is pretty printed with every header: 50k exchanges make ~330 MB.
const chrome = Number(process.env.BENCH_CHROME_EXCHANGES ?? 50_000);
const repeats = Number(process.env.BENCH_REPEATS ?? 5);

// BENCH_ONLY=relay runs only the relay's memory figures (relay-memory.ts).
if (process.env.BENCH_ONLY !== 'relay') {
  // Every generator, each against its own bare JSON.parse; the two ratios side by side at the end.
  // BENCH_SHAPES=rounds,chrome runs only those generators.
  const sizes: Record<Shape, number> = { rounds: exchanges, bodies, chrome };
  const shapes = (process.env.BENCH_SHAPES ?? 'rounds,bodies,chrome').split(',').filter((s): s is Shape => s in sizes);
  const results: CoreRatios[] = [];
  for (const shape of shapes) results.push(await benchCore(sizes[shape], repeats, shape));
  console.log('ingest, plain lint --format json vs a bare JSON.parse process of the same file (goals: time <= 2.5x, peak RSS <= 4x the file):');
  for (const r of results) {
    console.log(`  ${r.shape}: ${r.exchanges} exchanges, ${(r.bytes / 1048576).toFixed(1)} MB: time ${r.timeRatio.toFixed(2)}x (CPU ${r.cpuRatio.toFixed(2)}x), peak RSS ${r.memRatio.toFixed(2)}x the file`);
  }
}
// BENCH_ONLY=core skips the browser benchmarks (they need Chromium and take minutes).
const extras = process.env.BENCH_ONLY === 'core' ? [] : process.env.BENCH_ONLY === 'relay' ? ['./relay-memory.ts'] : ['./relay-memory.ts', './tap.ts', './ui.ts', './import.ts', './live-relay.ts', './page-rows.ts', './wrap.ts', './startup.ts', './mock.ts'];
for (const extra of extras) {
  if (!existsSync(new URL(extra, import.meta.url))) continue;
  const mod = await import(extra);
  if (typeof mod.run === 'function') await mod.run();
}
