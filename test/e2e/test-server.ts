// A tiny MCP-like HTTP server for browser tests and the tap bench: node:http on
// 127.0.0.1:0, CORS open (the page calls it cross-origin), and hooks to hold an event
// stream's second event, to see the client close a connection early, and to die
// mid-stream (the socket destroyed after one event, as when a server process is killed).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestMcpServer {
  readonly origin: string;
  /** Absolute URL of a path on this server. */
  url(path: string): string;
  readonly seen: readonly SeenRequest[];
  /** Lets every held `/stream` response send its second event and end. */
  release(): void;
  /** How many held second events were sent so far. */
  readonly secondEventsSent: number;
  /** Resolves when a response is closed by the client before it finished. */
  closedEarly(path: string): Promise<void>;
  /** Destroys the socket of every open `/dying` stream (after its first event). */
  cut(): void;
  /** How many `/dying` streams are open (sent their first event, not yet cut). */
  readonly dyingOpen: number;
  stop(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': '*',
  'access-control-max-age': '600',
};

function rpcId(body: string): unknown {
  try {
    return (JSON.parse(body) as { id?: unknown }).id ?? null;
  } catch {
    return null;
  }
}

/** A complete `tools/call` result whose serialisation is about `size` bytes. */
export function completeResult(id: unknown, size = 0): string {
  const base = { jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: '' }] } };
  const pad = Math.max(0, size - JSON.stringify(base).length);
  base.result.content[0].text = 'x'.repeat(pad);
  return JSON.stringify(base);
}

function sse(data: unknown, id: number): string {
  return `id: ${id}\nevent: message\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Routes (any path prefix works, so tests can use distinct URLs):
 *   POST  …/mcp?size=N        JSON answer (complete result), about N bytes
 *   POST  …/stream            event stream: a progress event now, the result on release()
 *   POST  …/stream?hold=no    event stream: both events at once
 *   POST  …/dying             event stream: a progress event now; on cut() the socket is
 *                             destroyed mid-stream, with no second event and no clean end
 *   OPTIONS *                 CORS preflight
 */
export async function startTestMcpServer(): Promise<TestMcpServer> {
  const seen: SeenRequest[] = [];
  const held = new Set<() => void>();
  const dying = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const earlyCloses = new Map<string, { hit: boolean; waiters: (() => void)[] }>();
  let released = false;
  let secondEventsSent = 0;

  const closeWatch = (path: string) => {
    let w = earlyCloses.get(path);
    if (!w) earlyCloses.set(path, (w = { hit: false, waiters: [] }));
    return w;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const url = new URL(req.url ?? '/', 'http://test.invalid');
    seen.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
    res.on('close', () => {
      if (res.writableFinished) return;
      const w = closeWatch(url.pathname);
      w.hit = true;
      for (const f of w.waiters.splice(0)) f();
    });
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS).end();
      return;
    }
    const id = rpcId(body);
    if (url.pathname.endsWith('/dying')) {
      res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(sse({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, total: 2 } }, 1));
      dying.add(res);
      res.on('close', () => dying.delete(res));
      return;
    }
    if (url.pathname.endsWith('/stream')) {
      res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(sse({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, total: 2 } }, 1));
      const second = () => {
        held.delete(second);
        if (res.writableEnded || res.destroyed) return;
        secondEventsSent += 1;
        res.end(sse(JSON.parse(completeResult(id)), 2));
      };
      if (url.searchParams.get('hold') === 'no' || released) second();
      else held.add(second);
      return;
    }
    const size = Number(url.searchParams.get('size') ?? 0);
    res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
    res.end(completeResult(id, size));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    url: (path) => new URL(path, origin).href,
    seen,
    release() {
      released = true;
      for (const f of [...held]) f();
    },
    get secondEventsSent() {
      return secondEventsSent;
    },
    cut() {
      for (const res of [...dying]) res.socket?.destroy();
    },
    get dyingOpen() {
      return dying.size;
    },
    closedEarly(path) {
      const w = closeWatch(path);
      return w.hit ? Promise.resolve() : new Promise((resolve) => w.waiters.push(resolve));
    },
    async stop() {
      released = true;
      for (const f of [...held]) f();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
