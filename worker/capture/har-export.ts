// Records to a HAR 1.2 document that other tools open and that our importer reads back
// losslessly: standard fields carry what HAR can say, the `_mrtr` extension on each entry
// the rest (ids, source, event times, states, absent-versus-empty distinctions).
import type { ExchangeRecord, HeaderPair } from '../protocol.js';
import { headerValue } from './fields.js';
import { redactCookies, sanitizeRecord } from './sanitize.js';
import { serializeEventStream } from './event-stream.js';
import type { ExportOptions } from './types.js';

/** The `creator` written into exported HARs. */
export const HAR_CREATOR = { name: 'mrtr-inspector', version: '0.1.0' };

interface Cookie { name: string; value: string }

/** `a=1; b=2` (Cookie) or the first pair of each Set-Cookie, as HAR cookie objects. */
function cookiesOf(headers: readonly HeaderPair[], response: boolean): Cookie[] {
  const out: Cookie[] = [];
  for (const h of headers) {
    const n = h.name.toLowerCase();
    if (n !== (response ? 'set-cookie' : 'cookie')) continue;
    const pairs = response ? [h.value.split(';')[0]] : h.value.split(';');
    for (const p of pairs) {
      const eq = p.indexOf('=');
      if (eq > 0) out.push({ name: p.slice(0, eq).trim(), value: p.slice(eq + 1).trim() });
    }
  }
  return out;
}

function queryString(url: string): Cookie[] {
  try {
    const out: Cookie[] = [];
    new URL(url).searchParams.forEach((value, name) => out.push({ name, value }));
    return out;
  } catch {
    return [];
  }
}

// Hazard: toISOString throws RangeError outside ±8.64e15 ms; a bad time must not stop an export.
function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
}

const httpVersion = (headers: readonly HeaderPair[]) => (headers.some((h) => h.name.startsWith(':')) ? 'HTTP/2' : 'HTTP/1.1');
const nonNeg = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);

/** How harEntry fills HAR `cookies` arrays when the record given is a sanitised copy. */
export interface CookieSource {
  /** The unsanitised record, whose Cookie/Set-Cookie headers name the cookies. */
  from: ExchangeRecord;
  /** Redact the values (and these secrets in the names). */
  redact?: readonly string[];
}

/** One HAR entry (plain object) for one record, already sanitised or not by the caller. */
export function harEntry(r: ExchangeRecord, cookieSource?: CookieSource): Record<string, unknown> {
  const res = r.response;
  // Built from the original headers so a sanitised HAR still names its cookies.
  const src = cookieSource?.from ?? r;
  const secrets = cookieSource?.redact;
  const cookies = (headers: readonly HeaderPair[], response: boolean) => {
    const list = cookiesOf(headers, response);
    return secrets ? redactCookies(list, secrets) : list;
  };
  const mrtr: Record<string, unknown> = {
    v: r.v, id: r.id, source: r.source, state: r.state, startedAt: r.startedAt,
    // null marks "absent", which HAR's own fields cannot say.
    endedAt: r.endedAt ?? null,
  };
  if (r.session !== undefined) mrtr.session = r.session;
  if (r.client !== undefined) mrtr.client = r.client;
  if (r.error !== undefined) mrtr.error = r.error;
  if (r.derivedFrom !== undefined) mrtr.derivedFrom = r.derivedFrom;
  if (r.origin !== undefined) mrtr.origin = { ...r.origin };
  // The stdio marker: without it a stdio exchange would read back as an HTTP one.
  if (r.stdio !== undefined) mrtr.stdio = r.stdio.exit ? { ...r.stdio, exit: { ...r.stdio.exit } } : { ...r.stdio };
  const request: Record<string, unknown> = {
    method: r.request.method,
    url: r.request.url,
    httpVersion: httpVersion(r.request.headers),
    cookies: cookies(src.request.headers, false),
    headers: r.request.headers.map((h) => ({ name: h.name, value: h.value })),
    queryString: queryString(r.request.url),
    headersSize: -1,
    bodySize: r.request.body === undefined ? 0 : -1,
  };
  if (r.request.body !== undefined) {
    request.postData = { mimeType: headerValue(r.request.headers, 'content-type') ?? '', text: r.request.body };
  }
  let response: Record<string, unknown>;
  let wait = 0;
  let receive = 0;
  if (res) {
    mrtr.receivedAt = res.receivedAt;
    if (res.statusText === undefined) mrtr.noStatusText = true;
    const mimeType = headerValue(res.headers, 'content-type') ?? '';
    const content: Record<string, unknown> = { size: 0, mimeType };
    let text: string | undefined = res.body;
    if (res.events) {
      mrtr.events = res.events.map((e) => ({ ...e }));
      if (res.tail !== undefined) mrtr.tail = res.tail;
      text = serializeEventStream(res.events, res.tail);
    } else if (mimeType.toLowerCase().includes('text/event-stream')) {
      // Tells our importer the body was kept as text, not parsed into events.
      mrtr.events = null;
    }
    if (text !== undefined) {
      content.size = text.length;
      content.text = text;
    }
    response = {
      status: res.status,
      statusText: res.statusText ?? '',
      httpVersion: httpVersion(r.request.headers),
      cookies: cookies(src.response?.headers ?? [], true),
      headers: res.headers.map((h) => ({ name: h.name, value: h.value })),
      content,
      redirectURL: headerValue(res.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: -1,
    };
    wait = nonNeg(res.receivedAt - r.startedAt);
    receive = r.endedAt === undefined ? 0 : nonNeg(r.endedAt - res.receivedAt);
  } else {
    mrtr.noResponse = true;
    response = {
      status: 0, statusText: '', httpVersion: '', cookies: [], headers: [],
      content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1,
    };
    if (r.error !== undefined) response._error = r.error;
  }
  const entry: Record<string, unknown> = {
    startedDateTime: iso(r.startedAt),
    time: r.endedAt === undefined ? wait + receive : nonNeg(r.endedAt - r.startedAt),
    request,
    response,
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive },
  };
  if (r.client !== undefined) entry.connection = r.client;
  entry._mrtr = mrtr;
  return entry;
}

/** HAR 1.2 JSON text for the records; sanitised unless `sanitize: false` is chosen explicitly. */
export function exportHar(records: readonly ExchangeRecord[], opts: ExportOptions = {}): string {
  const sanitize = opts.sanitize !== false;
  const secrets = opts.secrets ?? [];
  const entries = records.map((r) => (sanitize ? harEntry(sanitizeRecord(r, secrets), { from: r, redact: secrets }) : harEntry(r)));
  const log = { version: '1.2', creator: HAR_CREATOR, pages: [], entries };
  // Hazard: one JSON.stringify of everything is fine for a file; a 100k-entry export
  // holds the whole text in memory once (no quadratic concatenation).
  return JSON.stringify({ log }, null, 1);
}
