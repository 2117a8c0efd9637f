import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname, join, resolve } from 'node:path';
import type { Socket } from 'node:net';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { Backlog } from './backlog.js';
import { CaptureFile } from './capture-file.js';
import { DEFAULT_PORT, defaultJsonlPath, relayDir } from './capture-path.js';
import { ExchangeRecorder, MAX_RECORDED_BYTES, type ExchangeStart, type RecordStage } from './exchange-recorder.js';
import { destinationProblem, foreignOriginProblem, hostProblem, INERT_HEADERS, ownOrigin, pageOriginProblem, pageSecretProblem, refuse, tokenMatches } from './guards.js';
import { infoFilePath, removeInfoFile, writeInfoFile } from './info-file.js';
import { handlePageLogin, pageLoginUrl } from './page-login.js';
import { freshSecret, NONCE_PARAM, PROOF_PATH, proofFor, validNonce } from './proof.js';
import { handlePageApi } from './page-api.js';
import { DEFAULT_MAX_MOCKS, MOCK_TARGET_PREFIX, MockHost } from './mock-host.js';
import type { RelayContext } from './relay-context.js';
import { PageHub } from './page-hub.js';
import { DEFAULT_RECORDING_BUDGET, RecordingBudget } from './recording-budget.js';
import { ensurePrivateDir } from './private-files.js';
import { inspectorBanner, relayMcpUrl } from '../serve/banner.js';
import { relayExchange, targetUrl, type RelayRoute } from './relay-exchange.js';
import { refusedRecord } from './refused-record.js';
import { RefusalLimit, type RefusalLimitOptions } from './refusal-limit.js';
import { DEMO_TARGET_ID, TargetStore } from './target-store.js';
import { handleIngest } from './stdio-ingest.js';
import { IngestedRecords } from './ingest-store.js';
import { STDIO_PAGE_PATH, STDIO_TARGET_PREFIX, StdioAttachments } from './stdio-attach.js';

/** The embedded demo server's web-standard face (server/demo/handler.ts). */
export interface DemoHandler {
  fetch(req: Request): Promise<Response>;
  close(): Promise<void>;
}

/** Where the relay writes and how it is reached. */
export interface RelayOptions {
  /** Makes the demo server (lazily, on first use). */
  createDemo: () => DemoHandler;
  /** The external clients' token; default MRTR_RELAY_TOKEN, else 192 random bits. */
  token?: string;
  /** The page link's token (page-login.ts); default MRTR_PAGE_TOKEN, else 192 random bits. */
  pageToken?: string;
  /** The capture file; default MRTR_RELAY_JSONL, else <relay dir>/relay-capture-<port>.jsonl (a 0700 folder of ours). */
  jsonlPath?: string;
  /** The port the inspector listens on, for the default capture file's name (default 5173). */
  port?: number;
  /** The per-user folder for the info file (info-file.ts); default MRTR_RELAY_DIR, else <os tmp>/mrtr-inspector-<uid>. */
  relayDir?: string;
  /** Reaches user-added targets; default global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Where problems are reported (default console.warn). */
  warn?: (message: string) => void;
  /** The most of one body recorded (default MAX_RECORDED_BYTES); the rest only passes through. */
  maxRecordedBytes?: number;
  /** Most bytes of the capture file handed to a page per backlog drain (capture-file.ts). */
  backlogBatchBytes?: number;
  /** A page whose unsent event-stream data passes this is dropped (default 16 MiB). */
  maxPageBuffer?: number;
  /** Relayed exchanges open at once; more are refused with 503 (default 64). */
  maxConcurrent?: number;
  /** Body bytes held for recording across open exchanges (default 256 MiB); past it, exchanges pass through with what did not fit unrecorded and marked truncated. */
  maxRecordingBytes?: number;
  /** How many refused requests are recorded per window (refusal-limit.ts defaults). */
  refusals?: RefusalLimitOptions;
  /** Served stdio servers' answer timeout and calls waiting per server (stdio-attach.ts defaults). */
  stdio?: { timeoutMs?: number; maxWaiting?: number };
  /** Targets given at start (`--target`): routed like the page's, whatever list the page sends. */
  pinnedTargets?: readonly { id: string; url: string }[];
  /** Mocks served at once ("Serve as mock", mock-host.ts; default 8) and the largest capture one is built from (default 32 MiB). */
  mocks?: { max?: number; maxCaptureBytes?: number };
}

/** Pushes of one streaming exchange to pages are at most this often (the last always goes). */
const PUSH_INTERVAL_MS = 200;

export type { RelayContext } from './relay-context.js';

/** A mounted relay: one connect/node middleware plus lifecycle. */
export interface Relay {
  readonly token: string;
  /** The token of the link that lets a browser in (page-login.ts). */
  readonly pageToken: string;
  readonly jsonlPath: string;
  readonly targetsPath: string;
  /** Node/connect middleware: answers /relay/... and /demo/..., passes the rest to next(). */
  handle(req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void;
  /** How many inspector pages hold the event stream now. */
  pages(): number;
  /** The lines printed at start, for the server listening on `port` (demo on and no start targets unless told). */
  banner(port: number, extra?: { demo?: boolean; targets?: readonly { id: string; url: string }[] }): string;
  /** The link that lets a browser in, for the server listening on `port`. */
  pageUrl(port: number): string;
  /** Writes the 0600 info file for `wrap` (info-file.ts) once the port is known; returns its path. */
  publish(port: number): string;
  /** Why a request to a page-only path is refused (no page origin or no page cookie), or undefined. */
  pageProblem(req: IncomingMessage): string | undefined;
  close(): Promise<void>;
}

// One random token per process: `vite dev` re-imports the config and re-creates the relay
// when the config changes, and external clients must not lose their URL when it does.
const TOKEN_KEY = Symbol.for('mrtr-inspector.relay-token');
function processToken(): string {
  const slot = globalThis as { [TOKEN_KEY]?: string };
  return (slot[TOKEN_KEY] ??= randomBytes(24).toString('base64url'));
}

// The page's secret (guards.ts, pageCookie), one per process for the same reason.
const PAGE_SECRET_KEY = Symbol.for('mrtr-inspector.page-secret');
function processPageSecret(): string {
  const slot = globalThis as { [PAGE_SECRET_KEY]?: string };
  return (slot[PAGE_SECRET_KEY] ??= randomBytes(32).toString('base64url'));
}

// The page link's token, one per process for the same reason.
const PAGE_TOKEN_KEY = Symbol.for('mrtr-inspector.page-token');
function processPageToken(): string {
  const slot = globalThis as { [PAGE_TOKEN_KEY]?: string };
  return (slot[PAGE_TOKEN_KEY] ??= randomBytes(24).toString('base64url'));
}

// The proof key (proof.ts), one per process for the same reason.
const PROOF_KEY = Symbol.for('mrtr-inspector.proof-key');
function processProofKey(): string {
  const slot = globalThis as { [PROOF_KEY]?: string };
  return (slot[PROOF_KEY] ??= freshSecret());
}

// A token: the option, the env override (tests), or 192 random bits.
function chooseToken(given: string | undefined, envName: 'MRTR_RELAY_TOKEN' | 'MRTR_PAGE_TOKEN', fallback: () => string): string {
  const token = given ?? process.env[envName] ?? fallback();
  if (!/^[A-Za-z0-9_-]{16,}$/.test(token) || token === 'api') {
    throw new Error(`${envName} must be at least 16 characters of A-Z, a-z, 0-9, "_" or "-".`);
  }
  return token;
}

export { defaultJsonlPath };

const DENIED_TOKEN = 'Refused: the relay URL needs the token printed when the inspector started (http://127.0.0.1:<port>/relay/<token>/<target>). Copy the current relay URL from the terminal or the inspector page.';
const WRONG_TOKEN = 'Refused: wrong relay token. The token changes on every start unless MRTR_RELAY_TOKEN is set; copy the current relay URL from the terminal or the inspector page.';

// A path segment decoded, or left as is when it is not valid percent-encoding.
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

// Creates the relay: target list, capture file, page event streams and the demo mount.
export function createRelay(opts: RelayOptions): Relay {
  const warn = opts.warn ?? ((m: string) => console.warn(m));
  const token = chooseToken(opts.token, 'MRTR_RELAY_TOKEN', processToken);
  const pageToken = chooseToken(opts.pageToken, 'MRTR_PAGE_TOKEN', processPageToken);
  const proofKey = processProofKey();
  const dir = opts.relayDir ?? relayDir();
  let infoFile: string | undefined;
  const given = opts.jsonlPath ?? process.env.MRTR_RELAY_JSONL;
  const jsonlPath = resolve(given ?? defaultJsonlPath(opts.port ?? DEFAULT_PORT, dir));
  // The default folder is in the shared temp folder: ours and closed (0700), or we refuse to
  // start. A folder the user named may be their own 0755 one, but never another user's.
  ensurePrivateDir(dirname(jsonlPath), given === undefined);
  const targetsPath = join(dirname(jsonlPath), `${basename(jsonlPath).replace(/\.jsonl$/i, '')}.targets.json`);
  const targets = new TargetStore(targetsPath, warn);
  const capture = new CaptureFile(jsonlPath, warn, { batchBytes: opts.backlogBatchBytes });
  const pages = new PageHub(opts.maxPageBuffer);
  const maxRecorded = opts.maxRecordedBytes ?? MAX_RECORDED_BYTES;
  const maxConcurrent = opts.maxConcurrent ?? 64;
  const budget = new RecordingBudget(opts.maxRecordingBytes ?? DEFAULT_RECORDING_BUDGET);
  let open = 0;
  const session = `relay-${new Date().toISOString()}`;
  const upstreamFetch = opts.fetch ?? ((r: Request) => fetch(r));
  let seq = 0;
  let connections = 0;
  const clientIds = new WeakMap<Socket, string>();
  const ingestedSeq = new Map<string, number>();
  let demo: DemoHandler | undefined;
  const getDemo = () => (demo ??= opts.createDemo());
  const stdio = new StdioAttachments(opts.stdio);
  const mocks = new MockHost(opts.mocks?.max ?? DEFAULT_MAX_MOCKS);
  // Open records from wraps, held so later sends are deltas; bounded like relayed exchanges.
  const ingested = new IngestedRecords(budget, maxRecorded, (record, stage) => ctx.ingest(record, stage));

  // Where a record goes. Pages get every step live. The file gets the request, head and
  // end steps while no page listens; and once an id has a line in the file it keeps
  // getting lines even after a page connects, because the page's backlog import of that
  // older line would otherwise replace the newer record it was pushed (last line wins).
  //
  // Cost: a page gets an id's record so far once, then only what is new (PageHub), so the
  // bytes pushed grow with the stream, not with its square. A record holds at most
  // `maxRecorded` bytes of body; a streaming exchange is pushed at most every
  // PUSH_INTERVAL_MS (a burst of events goes out as one push, the trailing one on a timer);
  // a page that stops reading is dropped by PageHub once its buffer passes its bound.
  const active = new Set<ExchangeRecorder>();
  const lastPush = new Map<string, number>();
  const trailing = new Map<string, NodeJS.Timeout>();
  const deliver = (record: ExchangeRecord, stage: RecordStage, whole = false) => {
    if (stage === 'end') for (const r of active) if (r.record === record) active.delete(r);
    if (stage === 'event') {
      if (trailing.has(record.id)) return;
      const wait = (lastPush.get(record.id) ?? 0) + PUSH_INTERVAL_MS - Date.now();
      if (wait <= 0) {
        lastPush.set(record.id, Date.now());
        pages.push(record, stage);
      } else {
        trailing.set(record.id, setTimeout(() => {
          trailing.delete(record.id);
          lastPush.set(record.id, Date.now());
          pages.push(record, stage);
        }, wait).unref());
      }
      return;
    }
    clearTimeout(trailing.get(record.id));
    trailing.delete(record.id);
    if (stage === 'end') lastPush.delete(record.id);
    else lastPush.set(record.id, Date.now());
    const pushed = pages.push(record, stage, whole) > 0;
    if (!pushed || capture.has(record.id)) void capture.append(record);
  };

  const ctx: RelayContext = {
    token,
    pageSecret: processPageSecret(),
    targets,
    capture,
    backlog: new Backlog(capture),
    pages,
    bounded: async (_res, work) => work(),
    demoUrl: (req) => `${ownOrigin(req)}/demo/mcp`,
    stdio,
    mocks,
    maxMockBytes: opts.mocks?.maxCaptureBytes ?? 32 * 1024 * 1024,
    ingest(record, stage) {
      // The same id arrives again as the exchange progresses: it keeps its first position.
      let at = ingestedSeq.get(record.id);
      if (at === undefined) ingestedSeq.set(record.id, (at = seq++));
      record.seq = at;
      record.session = session;
      const final = record.state !== 'pending' && record.state !== 'streaming';
      if (final) ingestedSeq.delete(record.id);
      deliver(record, final ? 'end' : stage ?? 'request');
    },
    relayUrl: (req, targetId) => relayMcpUrl(ownOrigin(req), token, targetId),
    route(req, targetId, query) {
      if (targetId === DEMO_TARGET_ID) {
        // In-process: no loopback hop, and no dependence on knowing our own port.
        return { targetId, url: targetUrl(ctx.demoUrl(req), query), fetch: (r) => getDemo().fetch(r) };
      }
      const mockName = mocks.nameOf(targetId);
      // The captured URL names the mock; nothing listens there, the relay answers in-process.
      if (mockName !== undefined) return { targetId, url: targetUrl(`${ownOrigin(req)}/relay/mock/${mockName}/mcp`, query), fetch: (r) => mocks.fetch(mockName, r) };
      const stdioName = stdio.nameOf(targetId);
      if (stdioName !== undefined) return { targetId, url: targetUrl(`${ownOrigin(req)}${STDIO_PAGE_PATH}${stdioName}`, query), fetch: (r) => stdio.fetch(stdioName, r) };
      const target = targets.get(targetId) ?? opts.pinnedTargets?.find((t) => t.id === targetId);
      return target && { targetId, url: targetUrl(target.url, query), fetch: upstreamFetch };
    },
    recorder(req, start) {
      const socket = req.socket;
      let client = clientIds.get(socket);
      if (!client) clientIds.set(socket, (client = `relay-conn-${++connections}:${socket.remotePort}`));
      const recorder = new ExchangeRecorder({ ...start, id: randomUUID(), seq: seq++, session, client }, deliver, maxRecorded, budget);
      active.add(recorder);
      return recorder;
    },
  };

  const demoNode = async (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => {
    // The demo's own endpoint goes through the same streaming path, unrecorded (the page's
    // service worker records the page's calls; external clients use the relay URL).
    const route = { targetId: DEMO_TARGET_ID, url: targetUrl(ctx.demoUrl(req), query), fetch: (r: Request) => getDemo().fetch(r) };
    await relayExchange(req, res, route, {});
  };

  // At most `maxConcurrent` relayed exchanges at once: each holds a request body of up to
  // 16 MiB and its record, so parallel uploads must not add up without limit.
  const bounded = async (res: ServerResponse, work: () => Promise<void>) => {
    if (open >= maxConcurrent) {
      res.setHeader('retry-after', '1');
      return refuse(res, 503, `The relay is busy: ${maxConcurrent} exchanges are open at once. Retry shortly.`);
    }
    open++;
    try {
      await work();
    } finally {
      open--;
    }
  };
  ctx.bounded = bounded;

  // A refusal of an external client's request is also recorded, so the page can say why
  // (clients often show their own message instead): refused-record.ts.
  // Bounded per window (refusal-limit.ts): any web page can send them.
  const refusals = new RefusalLimit((r) => ctx.ingest(r), opts.refusals);
  const refuseRecorded = (req: IncomingMessage, res: ServerResponse, status: number, reason: string, tokenOk: boolean) => {
    refuse(res, status, reason);
    refusals.add(refusedRecord(req, status, reason, tokenOk));
  };

  const external = async (req: IncomingMessage, res: ServerResponse, segments: string[], query: URLSearchParams) => {
    const [given, targetId, ...rest] = segments;
    if (!given) return refuseRecorded(req, res, 403, DENIED_TOKEN, false);
    if (!tokenMatches(token, given)) return refuseRecorded(req, res, 403, targetId === undefined ? DENIED_TOKEN : WRONG_TOKEN, false);
    // `/mcp` may follow the target: clients guess the transport from a URL's `/mcp` ending.
    if (targetId === undefined || rest.length > 1 || (rest.length === 1 && rest[0] !== 'mcp')) {
      return refuseRecorded(req, res, 404, 'Relay URLs have the form /relay/<token>/<target>/mcp (or /relay/<token>/<target>).', true);
    }
    const route = ctx.route(req, targetId, query);
    if (!route) {
      const known = [...targets.list('').map((t) => t.id), ...mocks.names().map((n) => `${MOCK_TARGET_PREFIX}${n}`)].join(', ');
      return refuseRecorded(req, res, 404, `Unknown target ${JSON.stringify(targetId.slice(0, 64))}: add it as a watched target in the inspector page (the page sends its targets to the relay), then retry. Known targets: ${known}.`, true);
    }
    await bounded(res, () => relayExchange(req, res, route, { maxRecordedBytes: maxRecorded, record: (start) => ctx.recorder(req, start) }));
  };

  const route = async (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) => {
    if (path === '/demo/mcp') {
      const originIssue = foreignOriginProblem(req);
      return originIssue ? refuse(res, 403, originIssue) : demoNode(req, res, query);
    }
    if (path.startsWith('/demo/')) return refuse(res, 404, 'The embedded demo MCP server lives at /demo/mcp.');
    if (path.startsWith(STDIO_PAGE_PATH)) {
      // The page's own endpoint for an attached stdio server: same origin only (it drives a
      // local process); external clients use the relay URL of stdio-<name>, with the token.
      const name = safeDecode(path.slice(STDIO_PAGE_PATH.length));
      const originIssue = pageOriginProblem(req) ?? pageSecretProblem(req, ctx.pageSecret);
      if (originIssue) return refuse(res, 403, originIssue);
      const target = { targetId: `${STDIO_TARGET_PREFIX}${name}`, url: `${ownOrigin(req)}${path}`, fetch: (r: Request) => stdio.fetch(name, r) };
      return relayExchange(req, res, target, {});
    }
    const segments = path.split('/').slice(2).map(safeDecode);
    if (segments[0] === 'api') return handlePageApi(ctx, req, res, segments.slice(1));
    if (path === PROOF_PATH) {
      // Anyone may ask: the answer is an HMAC of their nonce and reveals nothing.
      const nonce = query.get(NONCE_PARAM);
      if (!validNonce(nonce)) return refuse(res, 400, `GET ${PROOF_PATH}?${NONCE_PARAM}=<16-128 base64url characters>.`);
      const body = JSON.stringify({ proof: proofFor(proofKey, nonce) });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
      return void res.end(body);
    }
    if (segments[0] === 'stdio-attach') return stdio.handle(req, res, token, segments.slice(1));
    if (segments[0] === 'ingest' && segments.length === 1) return ctx.bounded(res, () => handleIngest(req, res, token, ingested));
    return external(req, res, segments.filter((s, i) => s !== '' || i < segments.length - 1), query);
  };

  const pageUrl = (port: number) => pageLoginUrl(`http://127.0.0.1:${port}`, pageToken);
  return {
    token,
    pageToken,
    jsonlPath,
    targetsPath,
    pageUrl,
    publish(port) {
      infoFile = writeInfoFile(dir, port, { url: `http://127.0.0.1:${port}`, pageUrl: pageUrl(port), token, proofKey, pid: process.pid });
      return infoFile;
    },
    pageProblem: (req) => pageOriginProblem(req) ?? pageSecretProblem(req, ctx.pageSecret),
    handle(req, res, next) {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://relay.invalid');
      } catch {
        return next();
      }
      // Every request, not only the relay's, must name us: the page and its service worker
      // are served from here too, and a rebound page must not get them either.
      const hostIssue = hostProblem(req);
      if (hostIssue) return refuse(res, 403, hostIssue);
      const path = url.pathname;
      if (path !== '/relay' && !path.startsWith('/relay/') && !path.startsWith('/demo/')) {
        // Only the link printed at start hands a browser the secret its page-API calls carry.
        const login = { pageToken, pageSecret: ctx.pageSecret, infoFile: infoFile ?? infoFilePath(dir, req.socket.localPort ?? 0) };
        if (handlePageLogin(req, res, url, login, ownOrigin(req))) return;
        return next();
      }
      // Everything answered here is inert on our origin: a sandboxed, unsniffed non-document
      // that names no referrer (relay URLs carry the token). These replace the app's CSP,
      // and forward.ts keeps a target's own CSP and cookies from replacing them in turn.
      for (const [name, value] of Object.entries(INERT_HEADERS)) res.setHeader(name, value);
      const destIssue = destinationProblem(req);
      if (destIssue) return refuse(res, 403, destIssue);
      route(req, res, path, url.searchParams).catch((err: unknown) => {
        warn(`relay: ${(err as Error)?.stack ?? String(err)}`);
        refuse(res, 500, 'The relay failed on this request; see the inspector server log.');
      });
    },
    pages: () => pages.size,
    banner: (port, extra) => inspectorBanner({ port, token, pageToken, jsonlPath, demo: extra?.demo ?? true, targets: extra?.targets, infoFile }),
    async close() {
      // Shutdown cuts open streams; their end would otherwise race the final flush below.
      for (const r of [...active]) r.fail('aborted', 'The inspector server shut down while the exchange was open.');
      for (const t of trailing.values()) clearTimeout(t);
      trailing.clear();
      pages.close();
      stdio.close();
      mocks.close();
      if (infoFile) removeInfoFile(infoFile);
      ingested.clear();
      refusals.flush();
      await capture.flush();
      await demo?.close();
      demo = undefined;
    },
  };
}
