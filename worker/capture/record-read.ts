// Checks a parsed JSON value against the ExchangeRecord shape and copies only the known
// fields into a fresh object. Used for JSONL lines, which are ExchangeRecords as written.
//
// Hot: a relay backlog runs every record through here (100k records in a few seconds), so
// each field is read once by name and checked in place: no list of results per record, no
// path text unless a field is bad. The order of the checks is the order of the refusals
// (the first bad field is the one named), pinned by test/unit/capture/record-read.test.ts.
import { ORIGIN_KINDS, type ConsoleOrigin, type ExchangeRecord, type ExchangeSource, type ExchangeState, type SseEventRecord, type StdioInfo } from '../protocol.js';
import { isObj, isProblem, own, readHeaders, type FieldProblem, type Obj } from './fields.js';

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
/** Shares equal strings between records (fields.ts `interner`); by default none are. */
type Intern = (s: string) => string;
const same: Intern = (s) => s;

// Paths start empty at the record itself; `dot('')` keeps them from starting with a dot.
const dot = (where: string) => (where ? `${where}.` : '');
const bad = (where: string, key: string, message: string): FieldProblem => ({ where: `${dot(where)}${key}`, message });
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Reads a list of event records (`{t, data, event?, id?, retry?}`), or says which one is bad. */
export function readEvents(v: unknown, where: string): Read<SseEventRecord[]> {
  if (!Array.isArray(v)) return { where, message: 'events must be a list' };
  const out: SseEventRecord[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const e: unknown = v[i];
    if (!isObj(e)) return { where: `${where}[${i}]`, message: 'an event must be an object' };
    const t = own(e, 't');
    const data = own(e, 'data');
    if (!finite(t)) return { where: `${where}[${i}].t`, message: 't must be a finite number (epoch ms)' };
    if (typeof data !== 'string') return { where: `${where}[${i}].data`, message: 'data must be a string' };
    const rec: SseEventRecord = { t, data };
    const event = own(e, 'event');
    const id = own(e, 'id');
    const retry = own(e, 'retry');
    if (event !== undefined && typeof event !== 'string') return { where: `${where}[${i}].event`, message: 'event must be a string' };
    if (id !== undefined && typeof id !== 'string') return { where: `${where}[${i}].id`, message: 'id must be a string' };
    if (retry !== undefined && !finite(retry)) return { where: `${where}[${i}].retry`, message: 'retry must be a finite number' };
    if (event !== undefined) rec.event = event;
    if (id !== undefined) rec.id = id;
    if (retry !== undefined) rec.retry = retry;
    out[i] = rec;
  }
  return out;
}

function readRequest(v: unknown, where: string, intern: Intern): Read<ExchangeRecord['request']> {
  if (!isObj(v)) return { where, message: 'request must be an object' };
  const method = own(v, 'method');
  const url = own(v, 'url');
  if (typeof method !== 'string') return bad(where, 'method', 'method must be a string');
  if (typeof url !== 'string') return bad(where, 'url', 'url must be a string');
  const headers = readHeaders(own(v, 'headers'), `${dot(where)}headers`, intern);
  if (isProblem(headers)) return headers;
  const body = own(v, 'body');
  if (body !== undefined && typeof body !== 'string') return bad(where, 'body', 'body must be a string');
  const out: ExchangeRecord['request'] = { method: intern(method), url: intern(url), headers };
  if (body !== undefined) out.body = body;
  return out;
}

function readResponse(v: unknown, where: string, intern: Intern): Read<NonNullable<ExchangeRecord['response']>> {
  if (!isObj(v)) return { where, message: 'response must be an object' };
  const status = own(v, 'status');
  const receivedAt = own(v, 'receivedAt');
  if (!finite(status)) return bad(where, 'status', 'status must be a number');
  if (!finite(receivedAt)) return bad(where, 'receivedAt', 'receivedAt must be a number (epoch ms)');
  const headers = readHeaders(own(v, 'headers'), `${dot(where)}headers`, intern);
  if (isProblem(headers)) return headers;
  const out: NonNullable<ExchangeRecord['response']> = { status, headers, receivedAt };
  const statusText = own(v, 'statusText');
  const body = own(v, 'body');
  const tail = own(v, 'tail');
  if (statusText !== undefined && typeof statusText !== 'string') return bad(where, 'statusText', 'statusText must be a string');
  if (body !== undefined && typeof body !== 'string') return bad(where, 'body', 'body must be a string');
  if (tail !== undefined && typeof tail !== 'string') return bad(where, 'tail', 'tail must be a string');
  if (statusText !== undefined) out.statusText = intern(statusText);
  if (body !== undefined) out.body = body;
  const events = own(v, 'events');
  if (events !== undefined) {
    const read = readEvents(events, `${dot(where)}events`);
    if (isProblem(read)) return read;
    out.events = read;
  }
  if (tail !== undefined) out.tail = tail;
  return out;
}

/**
 * An ExchangeRecord from parsed JSON, or the first problem with its path under `where`.
 * `seq` is the caller's to assign; the stored one is ignored. `intern` (default: none)
 * shares the short strings records repeat (method, URL, headers, client, session).
 */
export function readRecord(v: unknown, where: string, seq: number, intern: Intern = same): Read<ExchangeRecord> {
  if (!isObj(v)) return { where, message: 'a record must be a JSON object' };
  const ver = own(v, 'v');
  const id = own(v, 'id');
  const source = own(v, 'source');
  const state = own(v, 'state');
  const startedAt = own(v, 'startedAt');
  if (!finite(ver)) return bad(where, 'v', 'v (record version) must be a number');
  if (typeof id !== 'string' || !id) return bad(where, 'id', 'id must be a non-empty string');
  if (!isSource(source)) return bad(where, 'source', `source must be one of ${SOURCES.join(', ')}`);
  if (!isState(state)) return bad(where, 'state', `state must be one of ${STATES.join(', ')}`);
  if (!finite(startedAt)) return bad(where, 'startedAt', 'startedAt must be a number (epoch ms)');
  const request = readRequest(own(v, 'request'), `${dot(where)}request`, intern);
  if (isProblem(request)) return request;
  const rec: ExchangeRecord = { v: ver, id, seq, source, startedAt, request, state };
  const response = own(v, 'response');
  if (response !== undefined) {
    const read = readResponse(response, `${dot(where)}response`, intern);
    if (isProblem(read)) return read;
    rec.response = read;
  }
  const session = own(v, 'session');
  const client = own(v, 'client');
  const endedAt = own(v, 'endedAt');
  const error = own(v, 'error');
  const derivedFrom = own(v, 'derivedFrom');
  const refused = own(v, 'refused');
  if (session !== undefined && typeof session !== 'string') return bad(where, 'session', 'session must be a string');
  if (client !== undefined && typeof client !== 'string') return bad(where, 'client', 'client must be a string');
  if (endedAt !== undefined && !finite(endedAt)) return bad(where, 'endedAt', 'endedAt must be a finite number');
  if (error !== undefined && typeof error !== 'string') return bad(where, 'error', 'error must be a string');
  if (derivedFrom !== undefined && typeof derivedFrom !== 'string') return bad(where, 'derivedFrom', 'derivedFrom must be a string');
  if (refused !== undefined && typeof refused !== 'string') return bad(where, 'refused', 'refused must be a string');
  if (session !== undefined) rec.session = intern(session);
  if (client !== undefined) rec.client = intern(client);
  if (endedAt !== undefined) rec.endedAt = endedAt;
  if (error !== undefined) rec.error = error;
  if (derivedFrom !== undefined) rec.derivedFrom = derivedFrom;
  if (refused !== undefined) rec.refused = refused;
  const origin = own(v, 'origin');
  if (origin !== undefined) {
    const read = readOrigin(origin, `${dot(where)}origin`);
    if (isProblem(read)) return read;
    rec.origin = read;
  }
  const stdio = own(v, 'stdio');
  if (stdio !== undefined) {
    const read = readStdio(stdio, `${dot(where)}stdio`);
    if (isProblem(read)) return read;
    rec.stdio = read;
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
  const name = own(v, 'name');
  if (typeof name !== 'string') return { where: `${where}.name`, message: 'stdio.name must be a string' };
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
