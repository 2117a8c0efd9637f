// The mock's Streamable HTTP endpoint on node:http, 127.0.0.1 only. 2026-07-28 has no
// sessions: the mock never mints or echoes Mcp-Session-Id, and answers GET and DELETE with
// 405 as a modern server should (spec §3.3). Every POST gets an answer: the recorded one,
// 202 for a notification, or a JSON-RPC error for a mismatch.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { answerClock, httpAnswer, type MockTiming } from '../../worker/mock/http-answer.js';
import type { MockMatcher, MockOutcome } from '../../worker/mock/matcher.js';

export interface MockHttpOptions {
  port: number;
  timing: MockTiming;
  /** One line for the log (stderr), without a newline. */
  log: (line: string) => void;
}

export interface MockHttpServer {
  url: string;
  /** Requests answered from the capture so far. */
  answered(): number;
  close(): Promise<void>;
}

/** The largest request body read (as the SDK's server default). */
const MAX_BODY = 4 * 1024 * 1024;
const LOCAL = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;

function jsonError(res: ServerResponse, status: number, id: unknown, code: number, message: string, data?: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: data === undefined ? { code, message } : { code, message, data } }));
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_BODY) return resolve(null);
      parts.push(b);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Sends a recorded answer: head, then the body or each event, late as recorded or at once. */
async function sendAnswer(res: ServerResponse, outcome: Extract<MockOutcome, { kind: 'answer' }>, timing: MockTiming): Promise<void> {
  const answer = httpAnswer(outcome, timing);
  const wait = answerClock(timing);
  await wait(answer.headAt);
  if (res.destroyed) return;
  res.writeHead(answer.status, answer.headers);
  for (const part of answer.parts) {
    await wait(part.at);
    if (res.destroyed) return;
    res.write(part.text);
  }
  res.end();
}

/** Starts the endpoint; every path answers (clients are pointed at the printed /mcp URL). */
export async function startMockHttp(matcher: MockMatcher, opts: MockHttpOptions): Promise<MockHttpServer> {
  let answered = 0;
  const sockets = new Set<Socket>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Only local pages and programs: a web page's DNS-rebound host or foreign origin is refused.
    const origin = req.headers.origin;
    if (!LOCAL.test(req.headers.host ?? '') || (origin !== undefined && origin !== 'null' && !LOCAL.test(origin.replace(/^https?:\/\//i, '')))) {
      return jsonError(res, 403, null, -32000, 'Forbidden: the mock answers only 127.0.0.1 and localhost');
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return jsonError(res, 405, null, -32000, 'Method not allowed.');
    }
    const body = await readBody(req);
    if (body === null) return jsonError(res, 413, null, -32600, `request body over ${MAX_BODY} bytes`);
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch (err) {
      return jsonError(res, 400, null, -32700, `Parse error: the body is not JSON (${(err as Error).message})`);
    }
    const outcome = matcher.handle(message);
    if (outcome.kind === 'accepted') return void res.writeHead(202).end();
    if (outcome.kind === 'mismatch') {
      opts.log(`mismatch: ${outcome.error.message.replace(/^mrtr-inspector mock: /, '')}`);
      return jsonError(res, 200, outcome.id, outcome.error.code, outcome.error.message, outcome.error.data);
    }
    answered++;
    if (outcome.warning) opts.log(`warning: ${outcome.warning}`);
    await sendAnswer(res, outcome, opts.timing);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      opts.log(`internal error: ${err.message}`);
      if (!res.headersSent) jsonError(res, 500, null, -32603, `mock internal error: ${err.message}`);
      else res.destroy();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    answered: () => answered,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
