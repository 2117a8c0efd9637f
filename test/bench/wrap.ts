// Wrap benchmark: what `mrtr-inspector wrap` adds to a stdio server's round trip.
//   npx tsx test/bench/wrap.ts        (env: WRAP_SAMPLES, WRAP_BURST, WRAP_BASELINE, WRAP_PROF)
// WRAP_PROF=<dir> writes a CPU profile of each wrap process there (node --cpu-prof).
// Three pipes to the same echo server run side by side: direct, through wrap recording to
// a live relay (in its own process; wrap finds it by its info file, as it finds the
// inspector), and through wrap with no inspector (the capture file). WRAP_BASELINE=<dir>
// adds a fourth, the `cli/bin.js` of another build (an older commit's, built there) to the
// same relay, so a change is measured against its before in one run. Samples rotate between them, one 1 KB request at a time, timed from the write to
// the answer's last byte. Then a burst of WRAP_BURST requests written at once, timed to the
// last answer. Prints figures and the machine's load beside them, and ratios measured side
// by side (under load the percentiles measure the scheduler; the ratios of one run less so).
// It asserts one thing: a wrap → relay pipe really records to the relay. wrap finds the
// bench relay by its info file; had it fallen back to its capture file (as when the bench
// passed a `--token` wrap ignores), its figures would be the file path's under the relay's
// name, so the bench stops with an error before measuring, and again after, if it did.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCliIfStale, ECHO_SERVER } from '../support/wrap-process.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const SAMPLES = Number(process.env.WRAP_SAMPLES ?? 3000);
const WARMUP = 300;
const BURST = Number(process.env.WRAP_BURST ?? 10_000);
const TOKEN = 'bench-token-0123456789abcdef';

export interface Pipe { name: string; child: ChildProcessWithoutNullStreams; next(): Promise<void>; stderr(): string }

// Counts answer lines; `next()` resolves when one more has fully arrived.
function pipe(name: string, argv: string[], env: NodeJS.ProcessEnv): Pipe {
  const child = spawn(process.execPath, [...(process.env.WRAP_PROF && argv[0] === 'cli/bin.js' ? ['--cpu-prof', '--cpu-prof-dir', process.env.WRAP_PROF] : []), ...argv], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let said = '';
  child.stderr.on('data', (d: Buffer) => {
    said += d.toString();
    process.stderr.write(`[${name}] ${d}`);
  });
  const waiting: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) waiting.shift()?.();
  });
  return { name, child, next: () => new Promise<void>((r) => waiting.push(r)), stderr: () => said };
}

/** The load average (1, 5, 15 min) and the core count, to print beside the figures. */
export function loadLine(): string {
  return `load average ${loadavg().map((x) => x.toFixed(2)).join(' / ')} on ${cpus().length} cores`;
}

/** Bench records the relay has filed (it holds them in its JSONL file while no page reads them). */
function relayed(file: string): number {
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('stdio://bench')).length;
}

/** Throws unless every wrap → relay pipe recorded to the relay: none wrote its own capture
 *  file or said it would, and the relay holds at least `atLeast` bench records. */
export function assertRelayed(pipes: readonly Pipe[], fallback: string, relayFile: string, atLeast: number): void {
  const why: string[] = [];
  for (const p of pipes) {
    const said = p.name.endsWith('→ relay') ? p.stderr().split('\n').find((l) => /Recording to|--token is ignored/.test(l)) : undefined;
    if (said !== undefined) why.push(`${p.name} said: ${said.trim()}`);
  }
  if (existsSync(fallback)) why.push(`the fallback capture file ${fallback} was written`);
  const got = relayed(relayFile);
  if (got < atLeast) why.push(`the relay holds ${got} of at least ${atLeast} bench records`);
  if (why.length > 0) {
    throw new Error(`wrap bench: the wrap → relay path fell back to the capture file (${why.join('; ')}). Its figures would be the file path's: not measured. Is the bench relay's info file in MRTR_RELAY_DIR, and does wrap find it?`);
  }
}

const message = (id: number) => {
  const base = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bench', arguments: { pad: '' } } });
  return base.replace('"pad":""', `"pad":"${'x'.repeat(1024 - base.length - 1)}"`) + '\n';
};

async function roundTrip(p: Pipe, id: number): Promise<number> {
  const done = p.next();
  const t0 = process.hrtime.bigint();
  p.child.stdin.write(message(id));
  await done;
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x: number) => `${x.toFixed(3)} ms`;

// CPU time (user + system, ms) a process has used, from /proc (Linux; 0 elsewhere). Under a
// loaded machine the latency percentiles wander with the scheduler; CPU per request does not.
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

export async function run(): Promise<void> {
  buildCliIfStale();
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-bench-wrap-'));
  const relayEnv = { MRTR_RELAY_DIR: join(dir, 'relay') };
  const relay = spawn(process.execPath, ['--import', 'tsx', 'test/bench/wrap-relay.ts'], { cwd: ROOT, env: { ...process.env, ...relayEnv, MRTR_RELAY_TOKEN: TOKEN, MRTR_RELAY_JSONL: join(dir, 'relay.jsonl') }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((r) => relay.stdout.once('data', (d: Buffer) => r(d.toString().trim())));
  const server = [process.execPath, ECHO_SERVER];
  const toRelay = (bin: string) => [bin, 'wrap', '--name', 'bench', '--inspector', `http://127.0.0.1:${port}`, '--capture', join(dir, 'not-relayed.jsonl'), '--', ...server];
  const baseline = process.env.WRAP_BASELINE;
  const pipes = [
    pipe('direct', [ECHO_SERVER], {}),
    pipe('wrap → relay', toRelay('cli/bin.js'), relayEnv),
    ...(baseline ? [pipe('before → relay', toRelay(join(resolve(baseline), 'cli/bin.js')), relayEnv)] : []),
    // A relay folder of its own, empty: no inspector of the user's running here is found.
    pipe('wrap → file', ['cli/bin.js', 'wrap', '--name', 'bench', '--capture', join(dir, 'wrap.jsonl'), '--', ...server], { MRTR_RELAY_TOKEN: '', MRTR_RELAY_DIR: join(dir, 'no-inspector') }),
  ];
  const relayPipes = pipes.filter((p) => p.name.endsWith('→ relay')).length;
  const fallback = join(dir, 'not-relayed.jsonl');
  const relayFile = join(dir, 'relay.jsonl');
  try {
    try {
      console.log(`\nwrap bench, at the start: ${loadLine()}`);
      // Ten calls on each pipe, then a pause past the delivery window: the relay must hold them.
      for (let i = 0; i < 10; i++) for (const p of pipes) await roundTrip(p, 1_000_000 + i);
      await new Promise((r) => setTimeout(r, 500));
      assertRelayed(pipes, fallback, relayFile, 10 * relayPipes);
      const times = pipes.map(() => [] as number[]);
      let id = 0;
      let cpu0: number[] = [];
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        if (i === WARMUP) cpu0 = pipes.map((p) => cpuMs(p.child.pid));
        for (let k = 0; k < pipes.length; k++) {
          const t = await roundTrip(pipes[k], ++id);
          if (i >= WARMUP) times[k].push(t);
        }
      }
      // Read after a pause longer than the delivery window, so the last batch's POST counts.
      await new Promise((r) => setTimeout(r, 300));
      const cpu = pipes.map((p, k) => (cpuMs(p.child.pid) - cpu0[k]) / SAMPLES);
      console.log(`\nwrap: round trip of one 1 KB request, ${SAMPLES} samples each, rotating (warm-up ${WARMUP})`);
      const [direct] = times;
      for (let k = 0; k < pipes.length; k++) {
        const xs = times[k];
        const added = k === 0 ? '' : `   added: p50 ${ms(pct(xs, 0.5) - pct(direct, 0.5))}, p95 ${ms(pct(xs, 0.95) - pct(direct, 0.95))}, p99 ${ms(pct(xs, 0.99) - pct(direct, 0.99))}`;
        const own = k === 0 ? '' : `   wrap CPU ${(cpu[k] * 1000).toFixed(0)} µs/request`;
        console.log(`  ${pipes[k].name.padEnd(14)} p50 ${ms(pct(xs, 0.5))}  p95 ${ms(pct(xs, 0.95))}  p99 ${ms(pct(xs, 0.99))}${added}${own}`);
      }
      // Ratios of one run, each pipe against the direct one and the relay against the file.
      const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
      console.log(`  ratios, side by side (${loadLine()}):`);
      for (let k = 1; k < pipes.length; k++) console.log(`    ${pipes[k].name.padEnd(14)} / direct: p50 ${ratio(pct(times[k], 0.5), pct(direct, 0.5))}, p95 ${ratio(pct(times[k], 0.95), pct(direct, 0.95))}`);
      const file = pipes.findIndex((p) => p.name === 'wrap → file');
      for (let k = 1; k < pipes.length; k++) {
        if (k === file) continue;
        console.log(`    ${pipes[k].name.padEnd(14)} / wrap → file: p95 ${ratio(pct(times[k], 0.95), pct(times[file], 0.95))}, wrap CPU ${ratio(cpu[k], cpu[file])}`);
      }
      console.log(`\nwrap: burst of ${BURST} 1 KB requests written at once, to the last answer`);
      for (const p of pipes) {
        const answers = Array.from({ length: BURST }, () => p.next());
        const t0 = process.hrtime.bigint();
        const text = Array.from({ length: BURST }, () => message(++id)).join('');
        p.child.stdin.write(text);
        await Promise.all(answers);
        const took = Number(process.hrtime.bigint() - t0) / 1e6;
        console.log(`  ${p.name.padEnd(14)} ${took.toFixed(0)} ms  (${Math.round(BURST / (took / 1000))} messages/s)`);
      }
    } finally {
      for (const p of pipes) p.child.stdin.end();
      await Promise.all(pipes.map((p) => new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.once('close', r)))));
      relay.kill('SIGTERM');
      await new Promise((r) => relay.once('close', r));
      console.log(`\nwrap bench, at the end: ${loadLine()}`);
    }
    // A relay pipe that fell back to the file part way measured the wrong path: an error.
    assertRelayed(pipes, fallback, relayFile, (10 + WARMUP + SAMPLES) * relayPipes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
