// Relay memory against a hostile target (`npm run bench`; BENCH_ONLY=relay runs only this):
// each scenario in its own process, its peak RSS next to an idle relay's. Figures only.
import { spawnSync } from 'node:child_process';

const SCENARIOS: [string, string][] = [
  ['idle', 'one small exchange (baseline)'],
  ['sse-stalled-page', '2 MB event stream of 1 KB events, a page that never reads'],
  ['big-answer', 'one 300 MB answer'],
  ['parallel-uploads', '30 parallel 15 MiB uploads'],
];

export async function run(): Promise<void> {
  console.log('\nRelay memory (peak RSS of the whole process: relay, target and client)');
  for (const [name, what] of SCENARIOS) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', new URL('./rss-report.js', import.meta.url).pathname, new URL('./relay-scenario.ts', import.meta.url).pathname, name], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const rss = /BENCH_MAX_RSS_KB=(\d+)/.exec(r.stderr ?? '');
    const read = /BENCH_READ_BYTES=(\d+)/.exec(r.stderr ?? '');
    if (r.status !== 0 || !rss) {
      console.log(`  ${name.padEnd(18)} failed (${r.status}): ${(r.stderr ?? '').slice(0, 300)}`);
      continue;
    }
    console.log(`  ${name.padEnd(18)} peak RSS ${(Number(rss[1]) / 1024).toFixed(0).padStart(5)} MB   client read ${(Number(read?.[1] ?? 0) / 1048576).toFixed(1)} MB   ${what}`);
  }
}
