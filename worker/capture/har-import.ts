// One HAR 1.2 entry to one ExchangeRecord, for HARs from Chrome and Firefox DevTools,
// Playwright `recordHar`, mitmproxy and our own exporter (whose `_mrtr` extension, when
// present, wins so our own files round-trip exactly). Never throws on any JSON value.
import { PROTOCOL_VERSION, type ExchangeRecord, type ExchangeState, type SseEventRecord } from '../protocol.js';
import {
  base64Bytes, epochMs, headerValue, isObj, isProblem, num, own, readHeaders, str, utf8, type Obj,
} from './fields.js';
import { isSource, isState, readEvents, readOrigin, readStdio } from './record-read.js';
import { parseEventStreamText } from './event-stream.js';
import type { SkippedEntry } from './types.js';

/** A remark about one entry; importCapture groups them by kind into notes. */
export interface EntryNote {
  kind: 'file-body' | 'no-body' | 'bad-base64' | 'encoding' | 'form-params';
  where: string;
}

/** A read entry, or why it was skipped. */
export type EntryRead = { record: ExchangeRecord; notes: EntryNote[] } | { skipped: SkippedEntry };

/** Ids and session for an imported entry. */
export interface EntryOptions {
  /** When given, every id becomes `${idPrefix}-${index}`, even ones our exporter wrote. */
  idPrefix?: string;
  session?: string;
  /** Shares equal strings between records (fields.ts `interner`); importCapture passes one. */
  intern?: (s: string) => string;
}

const isEventStream = (mime: string | undefined) => !!mime && mime.trim().toLowerCase().startsWith('text/event-stream');

/** Epoch ms the response head arrived and the exchange ended, from `time` and `timings`,
 *  in whole milliseconds like `startedDateTime`. Hazard: a start in whole ms plus a
 *  fractional duration can land after the start of a request the client sent once it had
 *  this answer (a retry or a tasks/update sent within the same millisecond), and the
 *  threading and lint read that order; floored, an end is never after a later start. */
function harTimes(entry: Obj, startedAt: number): { receivedAt: number; endedAt?: number } {
  const { receivedAt, endedAt } = harSpans(entry, startedAt);
  const grid = (t: number) => Math.max(startedAt, Math.floor(t));
  return { receivedAt: grid(receivedAt), endedAt: endedAt === undefined ? undefined : grid(endedAt) };
}

function harSpans(entry: Obj, startedAt: number): { receivedAt: number; endedAt?: number } {
  const timings = own(entry, 'timings');
  const time = num(entry, 'time');
  let endedAt = time !== undefined && time >= 0 ? startedAt + time : undefined;
  if (!isObj(timings)) return { receivedAt: endedAt ?? startedAt, endedAt };
  // -1 means "does not apply"; negative values are ignored.
  const part = (k: string) => { const v = num(timings, k); return v !== undefined && v > 0 ? v : 0; };
  // Hazard: HAR 1.2 says `ssl` is already included in `connect`; count it only when
  // `connect` is absent, or TLS would be counted twice.
  const connect = num(timings, 'connect');
  const head = part('blocked') + part('dns') + (connect !== undefined && connect >= 0 ? connect : part('ssl')) + part('send') + part('wait');
  // A negative `time` (Playwright's -1 on a failed request) says the end is unknown.
  if (endedAt === undefined && time === undefined) endedAt = startedAt + head + part('receive');
  return { receivedAt: endedAt === undefined ? startedAt + head : Math.min(startedAt + head, endedAt), endedAt };
}

/** The request body from `postData`: text, else rebuilt form params; undefined with a note otherwise. */
function requestBody(pd: Obj, where: string, notes: EntryNote[]): string | undefined | SkippedEntry {
  const text = own(pd, 'text');
  if (typeof text === 'string') return text;
  if (text !== undefined) return { index: -1, where: `${where}.text`, message: 'postData.text must be a string' };
  if (typeof own(pd, '_file') === 'string' || typeof own(pd, '_sha1') === 'string') {
    notes.push({ kind: 'file-body', where });
    return undefined;
  }
  const params = own(pd, 'params');
  if (!Array.isArray(params) || params.length === 0) return undefined;
  const mime = str(pd, 'mimeType') ?? '';
  const pairs: string[] = [];
  for (const p of params) {
    const name = isObj(p) ? str(p, 'name') : undefined;
    if (name === undefined || mime.toLowerCase().includes('multipart')) {
      notes.push({ kind: 'form-params', where });
      return undefined;
    }
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(str(p, 'value') ?? '')}`);
  }
  return pairs.join('&');
}

/** Why the exchange did not complete, from the producers' error fields, or undefined. */
function harError(entry: Obj, res: Obj | undefined): string | undefined {
  // Chrome: `_error` (entry or response; null when none); Playwright: `response._failureText`.
  for (const v of [own(entry, '_error'), res && own(res, '_error'), res && own(res, '_failureText')]) {
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

/** Reads `log.entries[index]`; see the file comment. */
export function readHarEntry(entry: unknown, index: number, opts: EntryOptions = {}): EntryRead {
  const where = `log.entries[${index}]`;
  const skip = (w: string, message: string): EntryRead => ({ skipped: { index, where: w, message } });
  if (!isObj(entry)) return skip(where, 'an entry must be an object');
  const req = own(entry, 'request');
  if (!isObj(req)) return skip(`${where}.request`, 'the entry has no request object');
  const intern = opts.intern ?? ((s: string) => s);
  const url = str(req, 'url');
  if (url === undefined) return skip(`${where}.request.url`, 'request.url is missing or not a string');
  const method = str(req, 'method');
  if (method === undefined) return skip(`${where}.request.method`, 'request.method is missing or not a string');
  const reqHeaders = readHeaders(own(req, 'headers'), `${where}.request.headers`, intern);
  if (isProblem(reqHeaders)) return skip(reqHeaders.where, reqHeaders.message);
  const m = own(entry, '_mrtr');
  const mrtr = isObj(m) ? m : undefined;
  // Our exporter always writes `_mrtr.state`; other writers (the peers' recording proxy)
  // add only some fields, and the HAR's own fields fill the rest.
  const full = !!mrtr && isState(own(mrtr, 'state'));
  const startedAt = (mrtr && num(mrtr, 'startedAt')) ?? epochMs(own(entry, 'startedDateTime'));
  if (startedAt === undefined) return skip(`${where}.startedDateTime`, 'startedDateTime is missing or not an ISO 8601 date-time');
  const notes: EntryNote[] = [];

  const request: ExchangeRecord['request'] = { method: intern(method), url: intern(url), headers: reqHeaders };
  const pd = own(req, 'postData');
  if (pd !== undefined && pd !== null) {
    if (!isObj(pd)) return skip(`${where}.request.postData`, 'postData must be an object');
    const body = requestBody(pd, `${where}.request.postData`, notes);
    if (typeof body === 'object') return skip(body.where, body.message);
    if (body !== undefined) request.body = body;
  }

  const r = own(entry, 'response');
  const res = isObj(r) ? r : undefined;
  if (r !== undefined && r !== null && !res) return skip(`${where}.response`, 'response must be an object');
  const times = harTimes(entry, startedAt);
  const receivedAt = (mrtr && num(mrtr, 'receivedAt')) ?? times.receivedAt;
  let endedAt = times.endedAt;
  if (mrtr && own(mrtr, 'endedAt') !== undefined) endedAt = num(mrtr, 'endedAt');
  let response: ExchangeRecord['response'];
  let status = 0;
  if (res) {
    const s = own(res, 'status');
    if (typeof s !== 'number' || !Number.isFinite(s)) return skip(`${where}.response.status`, 'response.status must be a number');
    status = s;
    const headers = readHeaders(own(res, 'headers'), `${where}.response.headers`, intern);
    if (isProblem(headers)) return skip(headers.where, headers.message);
    const c = own(res, 'content');
    if (c !== undefined && c !== null && !isObj(c)) return skip(`${where}.response.content`, 'content must be an object');
    const content = isObj(c) ? c : undefined;
    const t = content && own(content, 'text');
    if (t !== undefined && t !== null && typeof t !== 'string') return skip(`${where}.response.content.text`, 'content.text must be a string');
    // Playwright leaves status -1 on a failed request; every producer uses 0 for "no response".
    const keep = full ? own(mrtr!, 'noResponse') !== true : status > 0;
    if (keep) {
      response = { status, headers, receivedAt };
      const statusText = str(res, 'statusText');
      if (statusText !== undefined && !(mrtr && own(mrtr, 'noStatusText') === true)) response.statusText = intern(statusText);
      const cw = `${where}.response.content`;
      let text = typeof t === 'string' ? t : undefined;
      const encoding = content && str(content, 'encoding');
      if (text !== undefined && encoding) {
        if (encoding.toLowerCase() === 'base64') {
          const bytes = base64Bytes(text);
          if (bytes) text = utf8(bytes);
          else { text = undefined; notes.push({ kind: 'bad-base64', where: cw }); }
        } else notes.push({ kind: 'encoding', where: cw });
      }
      if (text === undefined && content) {
        if (typeof own(content, '_file') === 'string') notes.push({ kind: 'file-body', where: cw });
        else if ((num(content, 'size') ?? 0) > 0) notes.push({ kind: 'no-body', where: cw });
      }
      const mrtrEvents = mrtr && own(mrtr, 'events');
      const readOwn = mrtrEvents !== undefined && mrtrEvents !== null ? readEvents(mrtrEvents, `${where}._mrtr.events`) : undefined;
      const streamType = isEventStream(headerValue(headers, 'content-type') ?? (content && str(content, 'mimeType')));
      // Other recorders (the peers' proxy) write an empty `_mrtr.events` beside a JSON body:
      // the body wins then. Our own exporter's events are always taken as written.
      if (readOwn && !isProblem(readOwn) && (full || streamType || (readOwn as SseEventRecord[]).length > 0 || text === undefined)) {
        response.events = readOwn as SseEventRecord[];
        const tail = str(mrtr!, 'tail');
        if (tail !== undefined) response.tail = tail;
      } else if (mrtrEvents !== null && text !== undefined && streamType) {
        const parsed = parseEventStreamText(text, receivedAt);
        response.events = parsed.events;
        if (parsed.tail !== undefined) response.tail = parsed.tail;
      } else if (text !== undefined) response.body = text;
    }
  }

  let error = harError(entry, res);
  let state: ExchangeState = error ? (/abort|cancel/i.test(error) ? 'aborted' : 'failed') : status > 0 ? 'complete' : 'failed';
  if (!error && state === 'failed') error = res ? `no response (status ${status})` : 'no response';
  if (full) {
    state = own(mrtr!, 'state') as ExchangeState;
    error = str(mrtr!, 'error');
  }
  const ownId = mrtr && str(mrtr, 'id');
  const source = mrtr && own(mrtr, 'source');
  const rec: ExchangeRecord = {
    v: (mrtr && num(mrtr, 'v')) ?? PROTOCOL_VERSION,
    id: ownId && opts.idPrefix === undefined ? ownId : `${opts.idPrefix ?? 'x'}-${index}`,
    seq: index,
    source: isSource(source) ? source : 'import',
    startedAt,
    request,
    state,
  };
  const session = opts.session ?? (mrtr && str(mrtr, 'session'));
  if (session !== undefined) rec.session = session;
  // Hazard for threading: Chrome's `connection` is a socket id (one client may use several
  // sockets), Firefox's is the server port (all clients share it). It is the best HAR has.
  const conn = own(entry, 'connection');
  const harClient = typeof conn === 'string' && conn ? conn : typeof conn === 'number' ? String(conn) : undefined;
  const client = (mrtr && str(mrtr, 'client')) ?? (full ? undefined : harClient);
  if (client !== undefined) rec.client = intern(client);
  if (response) rec.response = response;
  if (endedAt !== undefined) rec.endedAt = endedAt;
  if (error !== undefined) rec.error = error;
  const derivedFrom = mrtr && str(mrtr, 'derivedFrom');
  if (derivedFrom !== undefined) rec.derivedFrom = derivedFrom;
  const origin = mrtr && own(mrtr, 'origin');
  if (origin !== undefined) {
    const read = readOrigin(origin, `${where}._mrtr.origin`);
    if (isProblem(read)) return skip(read.where, read.message);
    rec.origin = read;
  }
  const stdio = mrtr && own(mrtr, 'stdio');
  if (stdio !== undefined) {
    const read = readStdio(stdio, `${where}._mrtr.stdio`);
    if (isProblem(read)) return skip(read.where, read.message);
    rec.stdio = read;
  }
  return { record: rec, notes };
}
