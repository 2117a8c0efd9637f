// Relay memory against a hostile target (`npm run bench`; BENCH_ONLY=relay runs only this):
// each scenario in its own process, its peak RSS next to an idle relay's. Figures only.
import { spawnSync } from 'node:child_process';

const SCENARIOS: [string, string][] = [
  ['idle', 'one small exchange (baseline)'],
  ['sse-stalled-page', '2 MB event stream of 1 KB events, a page that never reads'],
  ['sse-reading-page', '2 MB event stream of 1 KB events in 20 bursts, a page that reads'],
  ['big-answer', 'one 300 MB answer'],
  ['parallel-uploads', '30 parallel 15 MiB uploads'],
  ['parallel-uploads-unrecorded', 'the same, nothing of the bodies recorded (the floor: bodies held to forward)'],
];

const MB = 1024 * 1024;
/** What the parallel uploads send in all (30 x 15 MiB). */
const UPLOAD_TOTAL = 30 * 15 * MB;

export async function run(): Promise<void> {
  console.log('\nRelay memory (peak RSS of the whole process: relay, target and client)');
  const peak = new Map<string, number>();
  for (const [name, what] of SCENARIOS) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', new URL('./rss-report.js', import.meta.url).pathname, new URL('./relay-scenario.ts', import.meta.url).pathname, name], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const rss = /BENCH_MAX_RSS_KB=(\d+)/.exec(r.stderr ?? '');
    const read = /BENCH_READ_BYTES=(\d+)/.exec(r.stderr ?? '');
    if (r.status !== 0 || !rss) {
      console.log(`  ${name.padEnd(18)} failed (${r.status}): ${(r.stderr ?? '').slice(0, 300)}`);
      continue;
    }
    peak.set(name, Number(rss[1]) * 1024);
    console.log(`  ${name.padEnd(27)} peak RSS ${(Number(rss[1]) / 1024).toFixed(0).padStart(5)} MB   client read ${(Number(read?.[1] ?? 0) / MB).toFixed(1)} MB   ${what}`);
    const pushed = /BENCH_PUSHED_BYTES=(\d+)/.exec(r.stderr ?? '');
    if (pushed) console.log(`  ${''.padEnd(27)} pushed to the page ${(Number(pushed[1]) / MB).toFixed(2)} MB = ${(Number(pushed[1]) / Number(read?.[1] ?? 1)).toFixed(2)}x the stream`);
  }
  const idle = peak.get('idle');
  const recorded = peak.get('parallel-uploads');
  const floor = peak.get('parallel-uploads-unrecorded');
  if (idle && recorded && floor) {
    // Peak above an idle relay, as a multiple of what was uploaded (1.0 = each body held once).
    const ratio = (p: number) => ((p - idle) / UPLOAD_TOTAL).toFixed(2);
    console.log(`  parallel uploads, above idle / ${(UPLOAD_TOTAL / MB).toFixed(0)} MiB uploaded: recorded ${ratio(recorded)}x, unrecorded ${ratio(floor)}x`);
  }
}
