// Copy an exchange's request as a cURL command or a fetch() call, to re-run it outside the
// inspector. Sanitised by default (credentials become `[redacted]`, see
// capture/sanitize.ts); `sanitize: false` is the explicit choice to keep them.
import type { ExchangeRecord, HeaderPair } from '../protocol.js';
import { sanitizeRecord } from '../capture/sanitize.js';
import { stdioLine, stdioPipe } from './copy-as-stdio.js';
import { printfCommand, shellQuote, shellWord } from './shell-quote.js';

/** Options for toCurl and toFetch. */
export interface CopyAsOptions {
  /** Redact Authorization, cookies, API-key headers, OAuth fields and `secrets`. Default true. */
  sanitize?: boolean;
  /** Extra strings (keys, tokens) redacted wherever they occur, when sanitising. */
  secrets?: readonly string[];
}

// Hop-by-hop headers (RFC 9110 §7.6.1) and ones the client computes itself: copying them
// would send a stale length, a wrong Host, or an upgrade the new client did not ask for.
const DROPPED = new Set([
  'host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade',
  'content-length', 'accept-encoding',
]);

/** The request headers worth copying, in captured order: no pseudo, hop-by-hop or length headers. */
export function headersToCopy(headers: readonly HeaderPair[]): HeaderPair[] {
  // Connection may name further hop-by-hop headers for this one hop.
  const named = new Set<string>();
  for (const h of headers) {
    if (h.name.toLowerCase() === 'connection') for (const n of h.value.split(',')) named.add(n.trim().toLowerCase());
  }
  return headers.filter((h) => {
    const n = h.name.toLowerCase();
    return !n.startsWith(':') && !DROPPED.has(n) && !named.has(n);
  });
}

function header(headers: readonly HeaderPair[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}

/** The response is (or, with none recorded, a GET asks for) an event stream. */
function isEventStream(r: ExchangeRecord): boolean {
  if (r.response) {
    return r.response.events !== undefined || /text\/event-stream/i.test(header(r.response.headers, 'content-type') ?? '');
  }
  return r.request.method.toUpperCase() === 'GET' && /text\/event-stream/i.test(header(r.request.headers, 'accept') ?? '');
}

function prepared(record: ExchangeRecord, opts: CopyAsOptions): ExchangeRecord {
  return opts.sanitize === false ? record : sanitizeRecord(record, opts.secrets ?? []);
}

/**
 * A POSIX-shell cURL command for the request: `--data-raw` for the body (`-X` only when the
 * method is not what curl infers), `-N` when the answer is an event stream, `--compressed`
 * when the client asked for compression, `--globoff` when the URL has `[]{}`. Every
 * argument is single-quoted, so any body is safe to paste; a body with NUL is piped in with
 * printf and `--data-binary @-`, since a shell argument cannot hold NUL. A stdio exchange
 * gets a pipe of its line into the server's command instead (copy-as-stdio.ts).
 */
export function toCurl(record: ExchangeRecord, opts: CopyAsOptions = {}): string {
  const r = prepared(record, opts);
  // A stdio line has no URL to curl: a pipe into the server's command re-runs it.
  if (r.stdio !== undefined) return stdioPipe(r);
  const { method, url, body } = r.request;
  const upper = method.toUpperCase();
  const parts: string[] = [];
  parts.push(url.startsWith('-') ? `--url ${shellQuote(url)}` : shellQuote(url));
  if (upper === 'HEAD' && body === undefined) parts.push('--head');
  else if (method !== (body !== undefined ? 'POST' : 'GET')) parts.push(`-X ${shellWord(method)}`);
  for (const h of headersToCopy(r.request.headers)) {
    // `Name:` with nothing after it tells curl to remove the header; `Name;` sends it empty.
    parts.push(`-H ${shellQuote(h.value.trim() === '' ? `${h.name};` : `${h.name}: ${h.value}`)}`);
  }
  if (header(r.request.headers, 'accept-encoding') !== undefined) parts.push('--compressed');
  if (/[[\]{}]/.test(url)) parts.push('--globoff');
  let prefix = '';
  if (body !== undefined && body.includes('\0')) {
    prefix = `${printfCommand(body)} | `;
    parts.push('--data-binary @-');
  } else if (body !== undefined) {
    parts.push(`--data-raw ${shellQuote(body)}`);
  }
  if (isEventStream(r)) parts.push('-N');
  return `${prefix}curl ${parts.join(' \\\n  ')}`;
}

/**
 * A `fetch(url, { method, headers, body })` call for the request. Every string is written
 * with JSON.stringify, which is a valid JavaScript string literal for any text, so the
 * snippet is safe to paste. Headers are an object, or a list of pairs when a name repeats.
 * A stdio exchange gets its JSON-RPC line instead.
 */
export function toFetch(record: ExchangeRecord, opts: CopyAsOptions = {}): string {
  const r = prepared(record, opts);
  // No fetch() reaches a stdio server: the JSON-RPC line itself is what a client would write.
  if (r.stdio !== undefined) return stdioLine(r);
  const q = (s: string) => JSON.stringify(s);
  const headers = headersToCopy(r.request.headers);
  const lines: string[] = [`  method: ${q(r.request.method)},`];
  const names = headers.map((h) => h.name.toLowerCase());
  if (headers.length > 0 && new Set(names).size === names.length) {
    lines.push('  headers: {', ...headers.map((h) => `    ${q(h.name)}: ${q(h.value)},`), '  },');
  } else if (headers.length > 0) {
    lines.push('  headers: [', ...headers.map((h) => `    [${q(h.name)}, ${q(h.value)}],`), '  ],');
  }
  if (r.request.body !== undefined) lines.push(`  body: ${q(r.request.body)},`);
  const note = isEventStream(r) ? '// The answer is an event stream: read it from the response body as it arrives.\n' : '';
  return `${note}fetch(${q(r.request.url)}, {\n${lines.join('\n')}\n});`;
}
