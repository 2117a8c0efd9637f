// Peak RSS of the input-bounds scenarios (bounds-scenario.ts), each in its own process;
// with BENCH_BEFORE_ROOT set to an older checkout (dist built), the same scenarios against
// it, side by side. Figures only: run `tsx test/bench/bounds-memory.ts`.
import { spawnSync } from 'node:child_process';

const SCENARIOS: [string, string][] = [
  ['wrap-flood', 'wrap: a server writes 300 MiB with no newline'],
  ['wrap-progress', 'wrap: 20,000 progress notifications of ~1 KiB before one answer'],
  ['wrap-big-line', 'wrap: one 600 MiB answer line'],
  ['refused-flood', 'relay: 20,000 wrong-token requests with 2 KB Cookie and Referer'],
  ['ingest-concurrent', 'relay: 6 concurrent 30 MiB ingest batches'],
  ['cli-big-line', 'lint: a JSONL file with one 600 MiB line'],
];

const roots: [string, string][] = [['after', '.']];
if (process.env.BENCH_BEFORE_ROOT) roots.unshift(['before', process.env.BENCH_BEFORE_ROOT]);
const only = process.env.BENCH_SCENARIOS?.split(',');
console.log('\nInput bounds (peak RSS of the process named; figures only)');
for (const [name, what] of SCENARIOS) {
  if (only && !only.includes(name)) continue;
  console.log(`  ${name}: ${what}`);
  for (const [label, root] of roots) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', new URL('./rss-report.js', import.meta.url).pathname, new URL('./bounds-scenario.ts', import.meta.url).pathname, root, name], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 300_000 });
    const get = (k: string) => new RegExp(`BENCH_${k}=([^\\n]*)`).exec(r.stderr ?? '')?.[1];
    const kb = (v: string | undefined) => (v && /^\d+$/.test(v) ? `${(Number(v) / 1024).toFixed(0)} MB` : v ?? '?');
    const parts = [`exit ${get('EXIT') ?? r.status}`];
    if (get('MEASURED_RSS_KB')) parts.push(`wrap/CLI peak ${kb(get('MEASURED_RSS_KB'))}`, `client got ${(Number(get('CLIENT_BYTES') ?? 0) / 1048576).toFixed(1)} MiB`);
    else parts.push(`relay process peak ${kb(/BENCH_MAX_RSS_KB=(\d+)\s*$/m.exec(r.stderr ?? '')?.[1])}`);
    if (get('CAPTURE_BYTES')) parts.push(`capture file ${(Number(get('CAPTURE_BYTES')) / 1048576).toFixed(2)} MiB`);
    if (get('STATUSES')) parts.push(`statuses ${get('STATUSES')}`);
    if (get('CRASH')) parts.push(`crash: ${get('CRASH')!.slice(0, 80)}`);
    console.log(`    ${label.padEnd(6)} ${parts.join('   ')}`);
  }
}
