// Checks a parsed JSON value against the ExchangeRecord shape and copies only the known
// fields into a fresh object. Used for JSONL lines, which are ExchangeRecords as written.
import { ORIGIN_KINDS, type ConsoleOrigin, type ExchangeRecord, type ExchangeSource, type ExchangeState, type SseEventRecord, type StdioInfo } from '../protocol.js';
import { isObj, isProblem, num, own, readHeaders, str, type FieldProblem, type Obj } from './fields.js';

const SOURCES: readonly ExchangeSource[] = ['sw', 'relay', 'import', 'console'];
const STATES: readonly ExchangeState[] = ['pending', 'streaming', 'complete', 'aborted', 'failed'];

/** True for a known exchange source name. */
export function isSource(v: unknown): v is ExchangeSource {
  return typeof v === 'string' && (SOURCES as readonly string[]).includes(v);
}

/** True for a known exchange state name. */
export function isState(v: unknown): v is ExchangeState {
  return typeof v === 'string' && (STATES as readonly string[]).includes(v);
}

type Read<T> = T | FieldProblem;

// Paths start empty at the record itself; `dot('')` keeps them from starting with a dot.
const dot = (where: string) => (where ? `${where}.` : '');

function optString(o: Obj, key: string, where: string): Read<string | undefined> {
  const v = own(o, key);
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : { where: `${dot(where)}${key}`, message: `${key} must be a string` };
}

function optNumber(o: Obj, key: string, where: string): Read<number | undefined> {
  const v = own(o, key);
  if (v === undefined) return undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : { where: `${dot(where)}${key}`, message: `${key} must be a finite number` };
}

/** Reads a list of event records (`{t, data, event?, id?, retry?}`), or says which one is bad. */
export function readEvents(v: unknown, where: string): Read<SseEventRecord[]> {
  if (!Array.isArray(v)) return { where, message: 'events must be a list' };
  const out: SseEventRecord[] = [];
  for (let i = 0; i < v.length; i++) {
    const w = `${where}[${i}]`;
    const e = v[i];
    if (!isObj(e)) return { where: w, message: 'an event must be an object' };
    const t = num(e, 't');
    const data = str(e, 'data');
    if (t === undefined) return { where: `${w}.t`, message: 't must be a finite number (epoch ms)' };
    if (data === undefined) return { where: `${w}.data`, message: 'data must be a string' };
    const rec: SseEventRecord = { t, data };
    const event = optString(e, 'event', w);
    const id = optString(e, 'id', w);
    const retry = optNumber(e, 'retry', w);
    for (const x of [event, id, retry]) if (isProblem(x)) return x;
    if (event !== undefined) rec.event = event as string;
    if (id !== undefined) rec.id = id as string;
    if (retry !== undefined) rec.retry = retry as number;
    out.push(rec);
  }
  return out;
}

function readRequest(v: unknown, where: string): Read<ExchangeRecord['request']> {
  if (!isObj(v)) return { where, message: 'request must be an object' };
  const method = str(v, 'method');
  const url = str(v, 'url');
  if (method === undefined) return { where: `${dot(where)}method`, message: 'method must be a string' };
  if (url === undefined) return { where: `${dot(where)}url`, message: 'url must be a string' };
  const headers = readHeaders(own(v, 'headers'), `${dot(where)}headers`);
  if (isProblem(headers)) return headers;
  const body = optString(v, 'body', where);
  if (isProblem(body)) return body;
  const out: ExchangeRecord['request'] = { method, url, headers };
  if (body !== undefined) out.body = body;
  return out;
}

function readResponse(v: unknown, where: string): Read<NonNullable<ExchangeRecord['response']>> {
  if (!isObj(v)) return { where, message: 'response must be an object' };
  const status = num(v, 'status');
  const receivedAt = num(v, 'receivedAt');
  if (status === undefined) return { where: `${dot(where)}status`, message: 'status must be a number' };
  if (receivedAt === undefined) return { where: `${dot(where)}receivedAt`, message: 'receivedAt must be a number (epoch ms)' };
  const headers = readHeaders(own(v, 'headers'), `${dot(where)}headers`);
  if (isProblem(headers)) return headers;
  const out: NonNullable<ExchangeRecord['response']> = { status, headers, receivedAt };
  const statusText = optString(v, 'statusText', where);
  const body = optString(v, 'body', where);
  const tail = optString(v, 'tail', where);
  for (const x of [statusText, body, tail]) if (isProblem(x)) return x;
  if (statusText !== undefined) out.statusText = statusText as string;
  if (body !== undefined) out.body = body as string;
  if (own(v, 'events') !== undefined) {
    const events = readEvents(own(v, 'events'), `${dot(where)}events`);
    if (isProblem(events)) return events;
    out.events = events;
  }
  if (tail !== undefined) out.tail = tail as string;
  return out;
}

/**
 * An ExchangeRecord from parsed JSON, or the first problem with its path under `where`.
 * `seq` is the caller's to assign; the stored one is ignored.
 */
export function readRecord(v: unknown, where: string, seq: number): Read<ExchangeRecord> {
  if (!isObj(v)) return { where, message: 'a record must be a JSON object' };
  const ver = num(v, 'v');
  const id = str(v, 'id');
  const source = own(v, 'source');
  const state = own(v, 'state');
  const startedAt = num(v, 'startedAt');
  if (ver === undefined) return { where: `${dot(where)}v`, message: 'v (record version) must be a number' };
  if (!id) return { where: `${dot(where)}id`, message: 'id must be a non-empty string' };
  if (!isSource(source)) return { where: `${dot(where)}source`, message: `source must be one of ${SOURCES.join(', ')}` };
  if (!isState(state)) return { where: `${dot(where)}state`, message: `state must be one of ${STATES.join(', ')}` };
  if (startedAt === undefined) return { where: `${dot(where)}startedAt`, message: 'startedAt must be a number (epoch ms)' };
  const request = readRequest(own(v, 'request'), `${dot(where)}request`);
  if (isProblem(request)) return request;
  const rec: ExchangeRecord = { v: ver, id, seq, source, startedAt, request, state };
  if (own(v, 'response') !== undefined) {
    const response = readResponse(own(v, 'response'), `${dot(where)}response`);
    if (isProblem(response)) return response;
    rec.response = response;
  }
  const session = optString(v, 'session', where);
  const client = optString(v, 'client', where);
  const endedAt = optNumber(v, 'endedAt', where);
  const error = optString(v, 'error', where);
  const derivedFrom = optString(v, 'derivedFrom', where);
  const refused = optString(v, 'refused', where);
  for (const x of [session, client, endedAt, error, derivedFrom, refused]) if (isProblem(x)) return x;
  if (session !== undefined) rec.session = session as string;
  if (client !== undefined) rec.client = client as string;
  if (endedAt !== undefined) rec.endedAt = endedAt as number;
  if (error !== undefined) rec.error = error as string;
  if (derivedFrom !== undefined) rec.derivedFrom = derivedFrom as string;
  if (refused !== undefined) rec.refused = refused as string;
  if (own(v, 'origin') !== undefined) {
    const origin = readOrigin(own(v, 'origin'), `${dot(where)}origin`);
    if (isProblem(origin)) return origin;
    rec.origin = origin;
  }
  if (own(v, 'stdio') !== undefined) {
    const stdio = readStdio(own(v, 'stdio'), `${dot(where)}stdio`);
    if (isProblem(stdio)) return stdio;
    rec.stdio = stdio;
  }
  return rec;
}

/** A Console exchange's origin (ExchangeRecord.origin), or where it is wrong. */
export function readOrigin(v: unknown, where: string): Read<ConsoleOrigin> {
  if (!isObj(v)) return { where, message: 'origin must be an object' };
  const kind = own(v, 'kind');
  if (typeof kind !== 'string' || !(ORIGIN_KINDS as readonly string[]).includes(kind)) return { where: `${where}.kind`, message: `origin.kind must be one of ${ORIGIN_KINDS.join(', ')}` };
  const run = own(v, 'run');
  if (run !== undefined && (typeof run !== 'string' || run === '')) return { where: `${where}.run`, message: 'origin.run must be a non-empty string' };
  return run !== undefined ? { kind: kind as ConsoleOrigin['kind'], run: run as string } : { kind: kind as ConsoleOrigin['kind'] };
}

/** Reads the stdio transport marker (`{name, exit?: {code, signal, stderrTail}}`). */
export function readStdio(v: unknown, where: string): Read<StdioInfo> {
  if (!isObj(v)) return { where, message: 'stdio must be an object' };
  const name = str(v, 'name');
  if (name === undefined) return { where: `${where}.name`, message: 'stdio.name must be a string' };
  const out: StdioInfo = { name };
  const exit = own(v, 'exit');
  if (exit === undefined) return out;
  const w = `${where}.exit`;
  if (!isObj(exit)) return { where: w, message: 'stdio.exit must be an object' };
  const code = own(exit, 'code');
  const signal = own(exit, 'signal');
  const stderrTail = own(exit, 'stderrTail');
  if (code !== null && !(typeof code === 'number' && Number.isInteger(code))) return { where: `${w}.code`, message: 'code must be a whole number or null' };
  if (signal !== null && typeof signal !== 'string') return { where: `${w}.signal`, message: 'signal must be a string or null' };
  if (typeof stderrTail !== 'string') return { where: `${w}.stderrTail`, message: 'stderrTail must be a string' };
  out.exit = { code: code as number | null, signal: signal as string | null, stderrTail };
  return out;
}
