// One input-bounds scenario in its own process, against the tree at `root` (this one, or an
// older checkout for a before/after figure): a hostile stdio server under `wrap`, a web page
// flooding the relay with refused requests, parallel ingest batches, a CLI lint of a JSONL
// line past what a string holds. Prints BENCH_* lines; run by bounds-memory.ts.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [rootArg, scenario] = process.argv.slice(2);
const root = resolve(rootArg);
const here = new URL('../..', import.meta.url).pathname;
const HOSTILE = join(here, 'test/peers/stdio/hostile-server.mjs');
const RSS = join(here, 'test/bench/rss-report.js');
const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'mrtr-bench-bounds-'));
const out = (k: string, v: number | string) => process.stderr.write(`BENCH_${k}=${v}\n`);

// Runs `node --import rss-report <args>` in `root`, feeding `input`; reports its peak RSS.
// The folder where wrap looks for a running inspector is the bench's own (empty), so the
// records go to the capture file even when an inspector of this user is running.
function measured(args: string[], input: string | null, until?: (seen: string) => boolean): Promise<void> {
  return new Promise((done) => {
    const c = spawn(process.execPath, ['--import', RSS, ...args], { cwd: root, env: { ...process.env, MRTR_RELAY_TOKEN: '', MRTR_RELAY_DIR: dir } });
    let bytes = 0;
    let tail = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => {
      bytes += d.length;
      tail = (tail + d.toString('latin1')).slice(-200);
      if (until?.(tail)) c.stdin.end();
    });
    c.stderr.on('data', (d) => (err += d));
    c.stdin.on('error', () => undefined);
    if (input !== null) c.stdin.write(input);
    if (!until) c.stdin.end();
    c.on('close', (code, signal) => {
      out('EXIT', `${code ?? signal}`);
      out('CLIENT_BYTES', bytes);
      out('MEASURED_RSS_KB', /BENCH_MAX_RSS_KB=(\d+)/.exec(err)?.[1] ?? 'none (crashed)');
      const crash = /(RangeError[^\n]*|FATAL ERROR[^\n]*)/.exec(err)?.[1];
      if (crash) out('CRASH', crash);
      done();
    });
  });
}
const wrap = (server: string[]) => ['cli/bin.js', 'wrap', '--name', 'bench', '--capture', join(dir, 'c.jsonl'), '--', process.execPath, HOSTILE, ...server];
const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }) + '\n';

async function inProcessRelay() {
  const { createRelay } = (await import(join(root, 'server/relay/relay.ts'))) as typeof import('../../server/relay/relay.js');
  const { createDemoHandler } = (await import(join(root, 'server/demo/handler.ts'))) as typeof import('../../server/demo/handler.js');
  const jsonl = join(dir, 'capture.jsonl');
  const relay = createRelay({ createDemo: () => createDemoHandler(), token: 'bench-token-0123456789abcdef', jsonlPath: jsonl, relayDir: dir, warn: () => undefined });
  const server = createServer((req, res) => relay.handle(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { relay, server, jsonl, port: (server.address() as AddressInfo).port };
}
const send = (port: number, method: string, path: string, headers: Record<string, string>, body?: string) =>
  new Promise<number>((done) => {
    const r = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    r.on('error', () => done(0));
    r.end(body);
  });

if (scenario === 'wrap-flood') {
  await measured(wrap(['flood', '300']), null);
} else if (scenario === 'wrap-progress') {
  await measured(wrap(['progress', '20000']), call, (t) => t.includes('"result"'));
  out('CAPTURE_BYTES', existsSync(join(dir, 'c.jsonl')) ? statSync(join(dir, 'c.jsonl')).size : 0);
} else if (scenario === 'wrap-big-line') {
  await measured(wrap(['big-answer', '600']), call, (t) => t.endsWith('}\n'));
} else if (scenario === 'cli-big-line') {
  const path = join(dir, 'one-600mib-line.jsonl');
  {
    const fd = openSync(path, 'w');
    const rec = (id: string) => JSON.stringify({ v: 1, id, seq: 0, source: 'relay', startedAt: 1, request: { method: 'POST', url: 'http://x/mcp', headers: [] }, state: 'pending' }) + '\n';
    writeSync(fd, rec('a') + '{"id":"');
    const block = Buffer.alloc(MiB, 'x');
    for (let i = 0; i < 600; i++) writeSync(fd, block);
    writeSync(fd, '"}\n' + rec('b'));
    closeSync(fd);
  }
  await measured(['cli/bin.js', 'lint', path, '--format', 'json'], null);
} else if (scenario === 'refused-flood') {
  const r = await inProcessRelay();
  const headers = { cookie: 'session=' + 'c'.repeat(2000), referer: 'http://127.0.0.1:5173/?' + 'r'.repeat(2000) };
  for (let i = 0; i < 20_000; i += 50) await Promise.all(Array.from({ length: 50 }, (_, k) => send(r.port, 'GET', `/relay/wrong-${i + k}/x/mcp`, headers)));
  await r.relay.close();
  out('CAPTURE_BYTES', existsSync(r.jsonl) ? statSync(r.jsonl).size : 0);
  r.server.close();
} else if (scenario === 'ingest-concurrent') {
  const r = await inProcessRelay();
  const rec = (i: number, b: number) => ({ v: 1, id: `b${b}-${i}`, seq: 0, source: 'relay', startedAt: 1, request: { method: 'POST', url: 'stdio://x', headers: [], body: 'x'.repeat(MiB) }, state: 'complete', stdio: { name: 'x' } });
  const batch = (b: number) => JSON.stringify(Array.from({ length: 30 }, (_, i) => rec(i, b)));
  const statuses = await Promise.all(Array.from({ length: 6 }, (_, b) => send(r.port, 'POST', '/relay/ingest', { 'content-type': 'application/json', 'x-mrtr-relay-token': 'bench-token-0123456789abcdef' }, batch(b))));
  out('STATUSES', statuses.join(','));
  await r.relay.close();
  r.server.close();
}
rmSync(dir, { recursive: true, force: true });
