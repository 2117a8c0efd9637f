// `npm run bench`: prints figures (ratios measured side by side in one run). Not a test:
// nothing here asserts a time.
import { existsSync } from 'node:fs';
import { benchCore } from './core.js';

// The design's figure is for 100k exchanges (a ~175 MB capture; the lint needs ~3x that).
const exchanges = Number(process.env.BENCH_EXCHANGES ?? 100_000);
const repeats = Number(process.env.BENCH_REPEATS ?? 5);

// BENCH_ONLY=relay runs only the relay's memory figures (relay-memory.ts).
if (process.env.BENCH_ONLY !== 'relay') await benchCore(exchanges, repeats);
// BENCH_ONLY=core skips the browser benchmarks (they need Chromium and take minutes).
const extras = process.env.BENCH_ONLY === 'core' ? [] : process.env.BENCH_ONLY === 'relay' ? ['./relay-memory.ts'] : ['./relay-memory.ts', './tap.ts', './ui.ts'];
for (const extra of extras) {
  if (!existsSync(new URL(extra, import.meta.url))) continue;
  const mod = await import(extra);
  if (typeof mod.run === 'function') await mod.run();
}
