// `mrtr-inspector mock` on a 10k-exchange capture (the bench generator's interleaved
// multi-round calls): the time from spawn to the printed URL, and what one matched answer
// costs. A client walks every recorded call through all its rounds, echoing the mock's
// tokens, one request at a time over keep-alive HTTP with --timing fast; each request goes,
// interleaved, to the mock and to a bare node:http server that answers a fixed body in its
// own process (HTTP's and the scheduler's own cost on this machine: the mock runs in a
// process of its own too) and in this one. The matcher's decision alone is timed in process.
// BENCH_MOCK_BASE=<another build's cli/bin.js> also starts that build's mock, alternately
// with this one, and sends it every request too: before and after in one run, same load.
// Prints figures; asserts nothing.
// Run: npx tsx test/bench/mock.ts   (BENCH_MOCK_EXCHANGES, default 10000; build the CLI first)
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCapture } from './generate-capture.js';
import { importCapture } from '../../worker/capture/index.js';
import { buildMockBook } from '../../worker/mock/book.js';
import { MockMatcher } from '../../worker/mock/matcher.js';

const EXCHANGES = Number(process.env.BENCH_MOCK_EXCHANGES ?? 10_000);
const BASE = process.env.BENCH_MOCK_BASE;
const STARTS = Number(process.env.BENCH_MOCK_STARTS ?? 3);
const BARE = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}')); }).listen(0, '127.0.0.1', function () { console.log('serving at http://127.0.0.1:' + this.address().port + '/mcp'); });`;

/** CPU ms a process has used so far (Linux /proc; NaN elsewhere): unlike wall time, not
 *  inflated by waiting for a core on a loaded machine. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Spawns a server; resolves with its URL and the ms from spawn to the printed URL. */
async function startChild(args: string[]): Promise<{ child: ChildProcess; url: string; startMs: number; startCpu: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.resume();
  let out = '';
  for await (const chunk of child.stdout!) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  const url = /at (http:\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`no URL from ${args.join(' ')}: ${out}`);
  return { child, url, startMs: performance.now() - t0, startCpu: cpuMs(child.pid) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

const mockArgs = (bin: string, path: string) => [bin, 'mock', path, '--timing', 'fast'];

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-mock-bench-'));
  try {
    const path = join(dir, 'capture.har');
    await generateCapture(path, EXCHANGES);
    const load = loadavg().map((x) => x.toFixed(1)).join(', ');
    // Reading and the book in this process, CPU beside wall time: on a loaded machine the
    // wall time of the start below is mostly waiting for a core.
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const imported = importCapture(readFileSync(path, 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const book = buildMockBook(imported.exchanges);
    const cpu = process.cpuUsage(cpu0);
    const inProcess = { wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 };

    // The matcher alone: every call through its rounds, in process.
    const matcher = new MockMatcher(book);
    const decide: number[] = [];
    for (const call of book.calls) {
      let state: unknown;
      for (const [i, r] of call.rounds.entries()) {
        const params = i === 0 ? r.params : { ...r.params, requestState: state };
        const t = performance.now();
        const o = matcher.handle({ jsonrpc: '2.0', id: i, method: call.method, params });
        decide.push(performance.now() - t);
        state = o.kind === 'answer' ? (JSON.parse(o.messages.at(-1)!.text) as { result?: { requestState?: string } }).result?.requestState : undefined;
      }
    }

    // Starts, alternating this build and the base one so both see the same load.
    const starts: Record<'mock' | 'base', number[]> = { mock: [], base: [] };
    const startCpu: Record<'mock' | 'base', number[]> = { mock: [], base: [] };
    for (let k = 0; k < STARTS; k++) {
      for (const [which, bin] of [['mock', 'cli/bin.js'], ...(BASE ? [['base', BASE]] : [])] as ['mock' | 'base', string][]) {
        const s = await startChild(mockArgs(bin, path));
        starts[which].push(s.startMs);
        startCpu[which].push(s.startCpu);
        await stop(s.child);
      }
    }

    const bareHere = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    });
    await new Promise<void>((resolve) => bareHere.listen(0, '127.0.0.1', resolve));
    const bareHereUrl = `http://127.0.0.1:${(bareHere.address() as AddressInfo).port}/mcp`;
    const bare = await startChild(['-e', BARE]);
    const mock = await startChild(mockArgs('cli/bin.js', path));
    const base = BASE ? await startChild(mockArgs(BASE, path)) : null;
    const post = async (url: string, body: unknown) => {
      const t = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
      const text = await res.text();
      return { ms: performance.now() - t, text };
    };
    const lastMessage = (text: string) => JSON.parse(text.includes('data: ') ? text.trim().split('\n').filter((l) => l.startsWith('data: ')).at(-1)!.slice(6) : text) as { result?: { requestState?: string }; error?: unknown };
    const times: Record<'mock' | 'base' | 'bare' | 'bareHere', number[]> = { mock: [], base: [], bare: [], bareHere: [] };
    let mismatches = 0;
    const children = { mock: mock.child, base: base?.child, bare: bare.child };
    const cpuBefore = Object.fromEntries(Object.entries(children).map(([k, c]) => [k, cpuMs(c?.pid)]));
    for (const call of book.calls) {
      let state: unknown;
      let baseState: unknown;
      for (const [i, r] of call.rounds.entries()) {
        const body = (s: unknown) => ({ jsonrpc: '2.0', id: i, method: call.method, params: i === 0 ? r.params : { ...r.params, requestState: s } });
        const m = await post(mock.url, body(state));
        times.mock.push(m.ms);
        const parsed = lastMessage(m.text);
        if (parsed.error) mismatches++;
        state = parsed.result?.requestState;
        if (base) {
          const b = await post(base.url, body(baseState));
          times.base.push(b.ms);
          baseState = lastMessage(b.text).result?.requestState;
        }
        times.bare.push((await post(bare.url, body(state))).ms);
        times.bareHere.push((await post(bareHereUrl, body(state))).ms);
      }
    }
    const cpuPer = Object.fromEntries(Object.entries(children).map(([k, c]) => [k, ((cpuMs(c?.pid) - cpuBefore[k]) * 1000) / times.mock.length])) as Record<keyof typeof children, number>;
    for (const c of [mock.child, bare.child, ...(base ? [base.child] : [])]) await stop(c);
    bareHere.close();
    const f = (x: number) => x.toFixed(2);
    const med = (xs: number[]) => pct(xs, 50).toFixed(0);
    const line = (name: string, xs: number[]) => `${name}: p50 ${f(pct(xs, 50))} ms, p95 ${f(pct(xs, 95))} ms, p95 over the bare process ${f(pct(xs, 95) - pct(times.bare, 95))} ms`;
    console.log(`mock: ${EXCHANGES} exchanges (${book.calls.length} calls), ${(readFileSync(path).length / 1048576).toFixed(1)} MB HAR; load average at start ${load}, at end ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
    console.log(`  start to printed URL, median of ${STARTS}: ${med(starts.mock)} ms [${starts.mock.map((x) => x.toFixed(0)).join(', ')}] (goal < 2000)${BASE ? `; base build ${med(starts.base)} ms [${starts.base.map((x) => x.toFixed(0)).join(', ')}], ratio ${(pct(starts.mock, 50) / pct(starts.base, 50)).toFixed(2)}x` : ''}`);
    console.log(`  CPU of the start (spawn to the URL), median: ${med(startCpu.mock)} ms${BASE ? `; base build ${med(startCpu.base)} ms, ratio ${(pct(startCpu.mock, 50) / pct(startCpu.base, 50)).toFixed(2)}x` : ''}`);
    console.log(`  reading the capture and building the book in process: ${inProcess.wall.toFixed(0)} ms wall, ${inProcess.cpu.toFixed(0)} ms CPU`);
    console.log(`  matched answer over HTTP, --timing fast, ${times.mock.length} requests each, interleaved (goal: p95 < 2 ms over the bare process):`);
    console.log(`    ${line('mock', times.mock)}`);
    if (base) console.log(`    ${line('base build', times.base)}; p95 ratio mock/base ${(pct(times.mock, 95) / pct(times.base, 95)).toFixed(2)}x`);
    console.log(`    CPU per request in the server's process: mock ${cpuPer.mock.toFixed(0)} µs${BASE ? `, base build ${cpuPer.base.toFixed(0)} µs (ratio ${(cpuPer.mock / cpuPer.base).toFixed(2)}x)` : ''}, bare ${cpuPer.bare.toFixed(0)} µs`);
    console.log(`    bare node:http, own process: p50 ${f(pct(times.bare, 50))} ms, p95 ${f(pct(times.bare, 95))} ms; in this process: p50 ${f(pct(times.bareHere, 50))} ms, p95 ${f(pct(times.bareHere, 95))} ms`);
    console.log(`  the matcher's decision alone: p50 ${(pct(decide, 50) * 1000).toFixed(0)} µs, p95 ${(pct(decide, 95) * 1000).toFixed(0)} µs; mismatches ${mismatches} of ${times.mock.length} requests`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
