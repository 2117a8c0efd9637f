// Stdio servers as relay targets (`mrtr-inspector wrap --serve`). The wrap process holds
// `POST /relay/stdio-attach/<name>` open: the relay writes the lines meant for the server's
// stdin down that response (NDJSON), and the wrap posts the server's stdout lines back to
// `POST /relay/stdio-attach/<name>/out`. Callers reach the server as an ordinary MCP HTTP
// endpoint: the page at `/relay/stdio/<name>`, external clients at the relay URL of target
// `stdio-<name>`; each POSTed request gets the server's answer as one JSON body.
//
// Hazard: many callers share one pipe, and their JSON-RPC ids may collide. Every request is
// renumbered on the way in (`mrtr-<n>`) and its answer given the caller's id back, so an
// answer can only ever reach the caller that asked.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './forward.js';
import { refuse } from './guards.js';
import { externalCaller } from './stdio-ingest.js';
import type { Era } from '../../worker/protocol.js';
import { HEADER_MISMATCH, STDIO_ERA_HEADER, eraNote, headerRefusal, parseEra, pinningEra } from './stdio-front.js';

/** The longest line a served stdio server may answer with; wrap answers longer ones with an error. */
export const SERVE_LINE_BYTES = 16 * 1024 * 1024;
/** What one POST of the server's output may carry: one longest line and then some. */
const MAX_OUT_BYTES = SERVE_LINE_BYTES + 8 * 1024 * 1024;
/** How long a caller waits for a served stdio server's answer (default). */
export const STDIO_ANSWER_TIMEOUT_MS = 120_000;
/** Calls one served stdio server may have waiting at once; more are answered busy at once, so
 *  a silent server cannot take every relay slot. */
export const STDIO_MAX_WAITING = 16;

/** Relay target ids of attached stdio servers start with this. */
export const STDIO_TARGET_PREFIX = 'stdio-';
/** The page's same-origin endpoint for an attached stdio server. */
export const STDIO_PAGE_PATH = '/relay/stdio/';

interface Attached {
  res: ServerResponse;
  waiting: Map<string, (answer: Record<string, unknown> | Error) => void>;
  /** The era the server process speaks: from its first request or notification, or from
   *  wrap when it re-attaches a process that already chose (stdio-front.ts). */
  era?: Era;
}

/** JSON-RPC errors a 2026-07-28 HTTP server sends with HTTP 400 (the spec's status table),
 *  whichever transport the server behind the front uses. */
const STATUS_400_CODES: ReadonlySet<number> = new Set([HEADER_MISMATCH, -32021, -32022]);

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });
const jsonResponse = (status: number, value: unknown) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

/** The attached stdio servers, by name. */
export class StdioAttachments {
  #byName = new Map<string, Attached>();
  #next = 0;
  readonly #timeoutMs: number;
  readonly #maxWaiting: number;

  constructor(opts: { timeoutMs?: number; maxWaiting?: number } = {}) {
    this.#timeoutMs = opts.timeoutMs ?? STDIO_ANSWER_TIMEOUT_MS;
    this.#maxWaiting = opts.maxWaiting ?? STDIO_MAX_WAITING;
  }

  /** Names of the attached servers. */
  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** The name behind a relay target id, when it is an attached stdio server's. */
  nameOf(targetId: string): string | undefined {
    if (!targetId.startsWith(STDIO_TARGET_PREFIX)) return undefined;
    const name = targetId.slice(STDIO_TARGET_PREFIX.length);
    return this.#byName.has(name) ? name : undefined;
  }

  /** Answers `/relay/stdio-attach/<name>[/out]` from a wrap process. */
  async handle(req: IncomingMessage, res: ServerResponse, token: string, rest: string[]): Promise<void> {
    if ((req.method ?? '').toUpperCase() !== 'POST') return refuse(res, 405, 'wrap --serve POSTs to /relay/stdio-attach/<name>.');
    if (!externalCaller(req, res, token)) return;
    const [name, out, ...more] = rest;
    if (!name || !NAME.test(name) || more.length > 0 || (out !== undefined && out !== 'out')) {
      return refuse(res, 404, 'The stdio attach paths are /relay/stdio-attach/<name> and /relay/stdio-attach/<name>/out; names are 1-64 letters, digits, ".", "_" or "-".');
    }
    if (out === undefined) {
      // First come keeps the name: a second attach (even with the token) must not take over
      // a name the page and clients already call, or the impostor would answer their calls.
      if (this.#byName.has(name)) return refuse(res, 409, `A stdio server named "${name}" is already attached. Stop that wrap first, or pick another name with --name.`);
      return this.#attach(name, res, parseEra(req.headers[STDIO_ERA_HEADER] as string | undefined));
    }
    const bytes = await readBody(req, MAX_OUT_BYTES);
    if (!bytes) return refuse(res, 413, `A batch of server output is limited to ${MAX_OUT_BYTES} bytes.`);
    const a = this.#byName.get(name);
    if (!a) return refuse(res, 409, `No stdio server "${name}" is attached; the wrap must hold /relay/stdio-attach/${name} open first.`);
    for (const line of Buffer.from(bytes).toString('utf8').split('\n')) if (line.trim()) this.#fromServer(a, line);
    res.writeHead(204).end();
  }

  /** Sends one MCP HTTP request to the attached server and resolves to its answer. */
  async fetch(name: string, request: Request): Promise<Response> {
    const method = request.method.toUpperCase();
    if (method !== 'POST') return jsonResponse(405, rpcError(null, -32000, 'Method not allowed.'));
    const a = this.#byName.get(name);
    if (!a) return jsonResponse(502, rpcError(null, -32000, `No stdio server "${name}" is attached. Start it with: mrtr-inspector wrap --serve --name ${name} -- <server command>`));
    let msg: unknown;
    try {
      msg = JSON.parse(await request.text());
    } catch {
      return jsonResponse(400, rpcError(null, -32700, 'Parse error: the body must be one JSON-RPC message.'));
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return jsonResponse(400, rpcError(null, -32600, 'Send one JSON-RPC message (batches are not relayed to stdio servers).'));
    const m = msg as Record<string, unknown>;
    const asked = pinningEra(m);
    if (typeof m.method !== 'string' || m.id === undefined) {
      // A notification (or a stray answer): delivered, acknowledged like HTTP does.
      a.era ??= asked;
      a.res.write(JSON.stringify(m) + '\n');
      return new Response(null, { status: 202 });
    }
    // Refused here, never passed on: the stdio server cannot see headers (stdio-front.ts).
    const refusal = headerRefusal(m, request.headers);
    if (refusal) return jsonResponse(400, rpcError(m.id, HEADER_MISMATCH, refusal));
    const callerId = m.id;
    if (a.waiting.size >= this.#maxWaiting) {
      return jsonResponse(503, rpcError(callerId, -32000, `The stdio server "${name}" has ${this.#maxWaiting} calls waiting for an answer; retry when it answers them.`));
    }
    a.era ??= asked;
    const rid = `mrtr-${++this.#next}`;
    const answer = new Promise<Record<string, unknown> | Error>((resolve) => a.waiting.set(rid, resolve));
    const abort = () => a.waiting.get(rid)?.(new Error('the caller went away'));
    request.signal.addEventListener('abort', abort, { once: true });
    const timer = setTimeout(() => a.waiting.get(rid)?.(new Error(`no answer within ${this.#timeoutMs / 1000} s`)), this.#timeoutMs);
    a.res.write(JSON.stringify({ ...m, id: rid }) + '\n');
    const got = await answer;
    clearTimeout(timer);
    request.signal.removeEventListener('abort', abort);
    a.waiting.delete(rid);
    if (got instanceof Error) return jsonResponse(502, rpcError(callerId, -32000, `The stdio server "${name}" did not answer: ${got.message}.`));
    return answerOf(name, a.era, asked, { ...got, id: callerId });
  }

  /** Ends every attachment (relay shutdown). */
  close(): void {
    for (const name of [...this.#byName.keys()]) this.#detach(name, 'the inspector shut down');
  }

  #attach(name: string, res: ServerResponse, era: Era | undefined): void {
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    const a: Attached = { res, waiting: new Map(), era };
    this.#byName.set(name, a);
    res.on('close', () => {
      if (this.#byName.get(name) === a) this.#detach(name, 'the wrap process went away');
    });
  }

  #detach(name: string, why: string): void {
    const a = this.#byName.get(name);
    if (!a) return;
    this.#byName.delete(name);
    for (const resolve of a.waiting.values()) resolve(new Error(why));
    a.waiting.clear();
    a.res.end();
  }

  // One line of the server's stdout: an answer goes to its caller; a request from the server
  // cannot be answered by an HTTP caller here, so it is refused at once rather than left to hang.
  #fromServer(a: Attached, line: string): void {
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      return; // log noise on stdout: nobody to hand it to
    }
    if (typeof m !== 'object' || m === null || Array.isArray(m)) return;
    const msg = m as Record<string, unknown>;
    if (typeof msg.method === 'string') {
      if (msg.id !== undefined) a.res.write(JSON.stringify(rpcError(msg.id, -32601, 'The inspector relays requests to this stdio server and cannot answer requests from it.')) + '\n');
      return;
    }
    if (typeof msg.id === 'string') a.waiting.get(msg.id)?.(msg);
  }
}

/** The HTTP answer to a served server's JSON-RPC answer: the status a 2026 HTTP server would
 *  give its error, and the era note when the caller speaks another era than the process. */
function answerOf(name: string, speaks: Era | undefined, asked: Era | undefined, answer: Record<string, unknown>): Response {
  const error = answer.error;
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return jsonResponse(200, answer);
  const e = error as Record<string, unknown>;
  const status = typeof e.code === 'number' && STATUS_400_CODES.has(e.code) ? 400 : 200;
  if (speaks === undefined || asked === undefined || speaks === asked || typeof e.message !== 'string') return jsonResponse(status, answer);
  return jsonResponse(status, { ...answer, error: { ...e, message: e.message + eraNote(name, speaks, asked) } });
}
