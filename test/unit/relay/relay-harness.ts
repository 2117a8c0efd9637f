// Shared fixtures for the relay tests: a relay mounted on a plain node:http server, raw
// HTTP requests (so Host and Origin can be forged), an event-stream reader, and upstream
// test servers. Everything returned has a close(); tests close what they start.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { createDemoHandler } from '../../../server/demo/handler.js';
import { createRelay, type Relay, type RelayOptions } from '../../../server/relay/relay.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { applyPush } from '../../../worker/capture/relay-push.js';

// The relay token every test uses (long enough to pass the relay's own check).
export const TOKEN = 'test-token-0123456789abcdef';
// The page link's token every test relay uses (page-login.ts).
export const PAGE_TOKEN = 'page-token-0123456789abcdef';

// A relay listening on a random loopback port, with its capture dir and a relay-URL maker.
export interface RelayHarness {
  port: number;
  origin: string;
  relay: Relay;
  dir: string;
  jsonl: string;
  relayUrl(targetId: string): string;
  close(): Promise<void>;
}

// Starts a relay (with the real demo server) on 127.0.0.1:<random>, capturing into a fresh
// temp dir unless `dir` is given (to test what survives a restart).
export async function startRelay(opts: { dir?: string; keepDir?: boolean } & Partial<RelayOptions> = {}): Promise<RelayHarness> {
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'mrtr-relay-test-')));
  const jsonl = join(dir, 'capture.jsonl');
  const relay = createRelay({ createDemo: () => createDemoHandler(), token: TOKEN, pageToken: PAGE_TOKEN, jsonlPath: jsonl, relayDir: 'jsonlPath' in opts && opts.jsonlPath === undefined ? undefined : dir, warn: () => undefined, ...opts });
  const server = createServer((req, res) =>
    relay.handle(req, res, () => {
      res.writeHead(404).end('not the relay');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  pageCookies.set(port, await loadPage(port));
  // The 0600 info file wrap finds the inspector by (MRTR_RELAY_DIR=<dir>), in the harness's own folder.
  if (!('jsonlPath' in opts && opts.jsonlPath === undefined) && opts.relayDir === undefined) relay.publish(port);
  return {
    port,
    origin,
    relay,
    dir,
    jsonl,
    relayUrl: (targetId) => `${origin}/relay/${TOKEN}/${targetId}`,
    async close() {
      await relay.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!opts.dir && !opts.keepDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

// The page cookie each harness relay handed its page, by port: `send` and `openEvents` add it
// to page-API calls (and the page's stdio endpoint) the way a browser would, unless the test sets `cookie` itself.
const pageCookies = new Map<number, string>();

/** Opens the link printed at start, as the developer's browser does; resolves to the cookie it set (name=value). */
export async function loadPage(port: number, pageToken = PAGE_TOKEN): Promise<string> {
  const r = await send(port, { path: `/?token=${pageToken}`, headers: { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none' } });
  const set = r.headers['set-cookie'] ?? [];
  return (set[0] ?? '').split(';')[0];
}

function withPageCookie(port: number, path: string, headers: Record<string, string> = {}): Record<string, string> {
  const cookie = pageCookies.get(port);
  if (!(path.startsWith('/relay/api/') || path.startsWith('/relay/stdio/')) || cookie === undefined || Object.keys(headers).some((h) => h.toLowerCase() === 'cookie')) return headers;
  return { ...headers, cookie };
}

// A response read whole.
export interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
  json<T = { error?: string }>(): T;
}

// One HTTP request with exactly the headers given (Host included), body read whole.
export function send(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: { host: `127.0.0.1:${port}`, ...withPageCookie(port, opts.path, opts.headers) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

// An open event stream, read event by event.
export interface EventReader {
  status: number;
  headers: IncomingMessage['headers'];
  /** The next event's data, waiting up to `ms`. */
  next(ms?: number): Promise<string>;
  /** Events received so far and not yet taken. */
  pending(): number;
  /** How the stream finished: a clean end, or cut off (the server reset or destroyed it). */
  finished: Promise<'end' | 'cut'>;
  close(): void;
}

// Reads an event stream the way a page's EventSource would (fetch-and-read, in Node).
export function openEvents(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<EventReader> {
  return new Promise((resolve, reject) => {
    const queue: string[] = [];
    const waiters: ((data: string) => void)[] = [];
    const parser = createParser({
      onEvent: (e) => {
        const w = waiters.shift();
        if (w) w(e.data);
        else queue.push(e.data);
      },
    });
    const req = httpRequest({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: { host: `127.0.0.1:${port}`, ...withPageCookie(port, opts.path, opts.headers) } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (text: string) => parser.feed(text));
      res.on('error', () => undefined);
      let ended = false;
      res.on('end', () => (ended = true));
      const finished = new Promise<'end' | 'cut'>((done) => res.on('close', () => done(ended ? 'end' : 'cut')));
      resolve({
        finished,
        status: res.statusCode ?? 0,
        headers: res.headers,
        pending: () => queue.length,
        next: (ms = 5000) =>
          queue.length
            ? Promise.resolve(queue.shift()!)
            : new Promise((ok, fail) => {
                const timer = setTimeout(() => fail(new Error(`no event within ${ms} ms`)), ms);
                waiters.push((d) => {
                  clearTimeout(timer);
                  ok(d);
                });
              }),
        close: () => req.destroy(),
      });
    });
    req.on('error', (err) => reject(err));
    req.end(opts.body);
  });
}

/** An inspector page's event stream, read as the page reads it: each push applied to the record so far. */
export interface PageReader {
  /** The record the next push leaves for its id (a push that cannot be applied fails the read). */
  next(ms?: number): Promise<ExchangeRecord>;
  pending(): number;
  /** Bytes of push data received so far (the events' data, as the page's EventSource hands it over). */
  bytes(): number;
  close(): void;
}

// Opens /relay/api/events as the page does and rebuilds records with the page's own applyPush.
export async function openPage(h: { port: number; origin: string }): Promise<PageReader & { status: number; headers: IncomingMessage['headers'] }> {
  const raw = await openEvents(h.port, { path: '/relay/api/events', headers: { origin: h.origin } });
  const live = new Map<string, ExchangeRecord>();
  let bytes = 0;
  return {
    status: raw.status,
    headers: raw.headers,
    pending: raw.pending,
    bytes: () => bytes,
    close: raw.close,
    async next(ms) {
      const data = await raw.next(ms);
      bytes += Buffer.byteLength(data);
      const rec = applyPush(JSON.parse(data), (id) => live.get(id));
      if (!rec) throw new Error(`a push the page could not apply: ${data.slice(0, 200)}`);
      live.set(rec.id, rec);
      return rec;
    },
  };
}

/** An upstream server for the relay to forward to. */
export interface Upstream {
  url: string;
  close(): Promise<void>;
}

// Starts a test target on 127.0.0.1:<random> answering with `handler`.
export async function startUpstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Upstream> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Registers targets the way the page does.
export async function putTargets(h: RelayHarness, targets: { id: string; url: string }[]): Promise<RawResponse> {
  return send(h.port, { method: 'PUT', path: '/relay/api/targets', headers: { origin: h.origin, 'content-type': 'application/json' }, body: JSON.stringify(targets) });
}

// The capture file as the page would import it: header checked, later lines win by id.
// Only whole lines count: a test polling the file while the relay appends a large record
// can read its first part, which is not yet a line (every line the relay writes ends in \n).
export function parseJsonl(text: string): { header: unknown; records: ExchangeRecord[] } {
  const whole = text.endsWith('\n') ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  const lines = whole.split('\n').filter((l) => l.trim() !== '');
  const first = lines.length ? (JSON.parse(lines[0]) as { kind?: string }) : undefined;
  const header = first?.kind === 'mrtr-inspector-capture' ? first : undefined;
  const byId = new Map<string, ExchangeRecord>();
  for (const line of header ? lines.slice(1) : lines) {
    const rec = JSON.parse(line) as ExchangeRecord;
    byId.set(rec.id, rec);
  }
  return { header, records: [...byId.values()].sort((a, b) => a.seq - b.seq) };
}

// Resolves once `check` holds, polling (for effects that land after a response ends).
export async function eventually(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Backlog record number `i` of a capture file: a relayed exchange with a padded, multi-byte
 *  request body (so line sizes cross batch and piece bounds) and, unless pending, an answer. */
export function backlogRecord(i: number, state: ExchangeRecord['state']): ExchangeRecord {
  return {
    v: 1, id: `ex-${i}`, seq: i, source: 'relay', startedAt: 1_000 + i, state,
    request: { method: 'POST', url: 'http://t/mcp', headers: [], body: `{"n":${i},"pad":"${'é'.repeat(40)}"}` },
    ...(state === 'pending' ? {} : { response: { status: 200, headers: [], receivedAt: 2_000 + i, body: '{"ok":true}' } }),
  };
}
