// One relay memory scenario in its own process (peak RSS is per process): the relay on
// node:http, a hostile target and the client in the same process, both streaming in small
// chunks so that what grows is the relay's own holding. Run by relay-memory.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createConnection } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDemoHandler } from '../../server/demo/handler.js';
import { createRelay } from '../../server/relay/relay.js';

const scenario = process.argv[2] ?? 'idle';
const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'mrtr-bench-relay-'));
const TOKEN = 'bench-token-0123456789abcdef';
// The floor for parallel uploads: the same traffic with nothing of the bodies recorded.
const unrecorded = scenario === 'parallel-uploads-unrecorded';
const relay = createRelay({ createDemo: () => createDemoHandler(), token: TOKEN, jsonlPath: join(dir, 'capture.jsonl'), warn: () => undefined, ...(unrecorded ? { maxRecordedBytes: 0 } : {}) });

const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
};
const front = await listen((req, res) => relay.handle(req, res, () => res.writeHead(404).end()));

// Writes `total` bytes of `piece` with backpressure, then ends.
async function stream(res: ServerResponse, piece: string, total: number): Promise<void> {
  for (let sent = 0; sent < total; sent += piece.length) if (!res.write(piece)) await new Promise((r) => res.once('drain', r));
  res.end();
}

const target = await listen((req, res) => {
  req.resume();
  req.on('end', () => {
    if (scenario === 'sse-reading-page') {
      // 2 MB of 1 KB events in 20 bursts a push interval apart: a push per burst at least.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void (async () => {
        for (let b = 0; b < 20; b++) {
          res.write(`data: ${'e'.repeat(1018)}\n\n`.repeat(100));
          await new Promise((r) => setTimeout(r, 250));
        }
        res.end();
      })();
    } else if (scenario === 'sse-stalled-page') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void stream(res, `data: ${'e'.repeat(1018)}\n\n`, 2 * MiB);
    } else if (scenario === 'big-answer') {
      res.writeHead(200, { 'content-type': 'application/json' });
      void stream(res, 'x'.repeat(64 * 1024), 300 * MiB);
    } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
});

// A client call through the relay, its answer read and dropped; resolves to the bytes read.
function call(body: Buffer | string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: front.port, method: 'POST', path: `/relay/${TOKEN}/t`, headers: { host: `127.0.0.1:${front.port}`, 'content-type': 'application/json' } }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => resolve(n));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

// The page: its cookie from a page load, then the target list.
const pageCookie = await new Promise<string>((resolve) => {
  request({ host: '127.0.0.1', port: front.port, path: '/', headers: { host: `127.0.0.1:${front.port}`, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } }, (res) => {
    res.resume();
    resolve(String(res.headers['set-cookie']?.[0] ?? '').split(';')[0]);
  }).end();
});
await new Promise<void>((resolve) => {
  const req = request({ host: '127.0.0.1', port: front.port, method: 'PUT', path: '/relay/api/targets', headers: { host: `127.0.0.1:${front.port}`, origin: `http://127.0.0.1:${front.port}`, cookie: pageCookie, 'content-type': 'application/json' } }, (res) => {
    res.resume();
    res.on('end', () => resolve());
  });
  req.end(JSON.stringify([{ id: 't', url: `http://127.0.0.1:${target.port}/mcp` }]));
});

let read = 0;
if (scenario === 'sse-stalled-page') {
  // A page that opens the event stream and never reads.
  const socket = createConnection({ host: '127.0.0.1', port: front.port });
  socket.write(`GET /relay/api/events HTTP/1.1\r\nHost: 127.0.0.1:${front.port}\r\nOrigin: http://127.0.0.1:${front.port}\r\nCookie: ${pageCookie}\r\n\r\n`);
  socket.pause();
  await new Promise((r) => setTimeout(r, 200));
  read = await call('{}');
  await new Promise((r) => setTimeout(r, 1000));
  socket.destroy();
} else if (scenario === 'sse-reading-page') {
  // A page that reads every push: the bytes it is sent, next to the stream's.
  const socket = createConnection({ host: '127.0.0.1', port: front.port });
  let pushed = 0;
  socket.on('data', (c: Buffer) => (pushed += c.length));
  socket.write(`GET /relay/api/events HTTP/1.1\r\nHost: 127.0.0.1:${front.port}\r\nOrigin: http://127.0.0.1:${front.port}\r\nCookie: ${pageCookie}\r\n\r\n`);
  await new Promise((r) => setTimeout(r, 200));
  read = await call('{}');
  await new Promise((r) => setTimeout(r, 500));
  socket.destroy();
  process.stderr.write(`BENCH_PUSHED_BYTES=${pushed}\n`);
} else if (scenario === 'big-answer') {
  read = await call('{}');
} else if (scenario.startsWith('parallel-uploads')) {
  const body = Buffer.alloc(15 * MiB, 'u');
  read = (await Promise.all(Array.from({ length: 30 }, () => call(body)))).reduce((a, b) => a + b, 0);
} else read = await call('{}');

await relay.close();
front.server.closeAllConnections();
target.server.closeAllConnections();
front.server.close();
target.server.close();
rmSync(dir, { recursive: true, force: true });
process.stderr.write(`BENCH_READ_BYTES=${read}\n`);
