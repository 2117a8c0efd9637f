// `npm run bench`: prints figures (ratios measured side by side in one run). Not a test:
// nothing here asserts a time.
import { existsSync } from 'node:fs';
import { benchCore } from './core.js';

const exchanges = Number(process.env.BENCH_EXCHANGES ?? 50_000);
const repeats = Number(process.env.BENCH_REPEATS ?? 5);

await benchCore(exchanges, repeats);
for (const extra of ['./tap.ts', './ui.ts']) {
  if (!existsSync(new URL(extra, import.meta.url))) continue;
  const mod = await import(extra);
  if (typeof mod.run === 'function') await mod.run();
}
