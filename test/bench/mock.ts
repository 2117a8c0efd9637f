// `mrtr-inspector mock` on a 10k-exchange capture (the bench generator's interleaved
// multi-round calls): the time from spawn to the printed URL, and what one matched answer
// costs. A client walks every recorded call through all its rounds, echoing the mock's
// tokens, one request at a time over keep-alive HTTP with --timing fast; beside it the same
// requests to a bare node:http server that answers a fixed body (HTTP's own cost on this
// machine, measured interleaved), and the matcher's decision alone, in process. Prints
// figures; asserts nothing.
// Run: npx tsx test/bench/mock.ts   (BENCH_MOCK_EXCHANGES, default 10000; build the CLI first)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCapture } from './generate-capture.js';
import { importCapture } from '../../worker/capture/index.js';
import { buildMockBook } from '../../worker/mock/book.js';
import { MockMatcher } from '../../worker/mock/matcher.js';

const EXCHANGES = Number(process.env.BENCH_MOCK_EXCHANGES ?? 10_000);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Spawns the mock; resolves with its URL and the ms from spawn to the printed URL. */
async function startMock(path: string) {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['cli/bin.js', 'mock', path, '--timing', 'fast'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  for await (const chunk of child.stdout) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  const url = /at (http:\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`no URL from the mock: ${out}`);
  return { child, url, startMs: performance.now() - t0 };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-mock-bench-'));
  try {
    const path = join(dir, 'capture.har');
    await generateCapture(path, EXCHANGES);
    // Reading and the book in this process, CPU beside wall time: on a loaded machine the
    // wall time of the start below is mostly waiting for a core.
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const imported = importCapture(readFileSync(path, 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const book = buildMockBook(imported.exchanges);
    const inProcess = { wall: performance.now() - t0, cpu: (process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system) / 1000 };

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

    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/mcp`;
    const mock = await startMock(path);
    const post = async (url: string, body: unknown) => {
      const t = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
      const text = await res.text();
      return { ms: performance.now() - t, text };
    };
    const viaMock: number[] = [];
    const viaBare: number[] = [];
    let mismatches = 0;
    for (const call of book.calls) {
      let state: unknown;
      for (const [i, r] of call.rounds.entries()) {
        const body = { jsonrpc: '2.0', id: i, method: call.method, params: i === 0 ? r.params : { ...r.params, requestState: state } };
        const m = await post(mock.url, body);
        viaMock.push(m.ms);
        viaBare.push((await post(bareUrl, body)).ms);
        const last = m.text.includes('data: ') ? m.text.trim().split('\n').filter((l) => l.startsWith('data: ')).at(-1)!.slice(6) : m.text;
        const parsed = JSON.parse(last) as { result?: { requestState?: string }; error?: unknown };
        if (parsed.error) mismatches++;
        state = parsed.result?.requestState;
      }
    }
    mock.child.kill('SIGTERM');
    await once(mock.child, 'exit');
    bare.close();
    const f = (x: number) => x.toFixed(2);
    console.log(`mock: ${EXCHANGES} exchanges (${book.calls.length} calls), ${(readFileSync(path).length / 1048576).toFixed(1)} MB HAR`);
    console.log(`  start to printed URL: ${mock.startMs.toFixed(0)} ms (goal < 2000); reading the capture and building the book in process: ${inProcess.wall.toFixed(0)} ms wall, ${inProcess.cpu.toFixed(0)} ms CPU`);
    console.log(`  matched answer over HTTP, --timing fast: p50 ${f(pct(viaMock, 50))} ms, p95 ${f(pct(viaMock, 95))} ms; bare node:http, same requests: p50 ${f(pct(viaBare, 50))} ms, p95 ${f(pct(viaBare, 95))} ms; p95 over bare: ${f(pct(viaMock, 95) - pct(viaBare, 95))} ms (goal < 2)`);
    console.log(`  the matcher's decision alone: p50 ${(pct(decide, 50) * 1000).toFixed(0)} µs, p95 ${(pct(decide, 95) * 1000).toFixed(0)} µs; mismatches ${mismatches} of ${viaMock.length} requests`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
