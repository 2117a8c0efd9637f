// One Console send as the capture's source of truth (an ExchangeRecord with source
// 'console'), and what its answer says: input_required, complete, error, or a failure.
// The answer is read with the same decoder the analysis uses, so SSE and JSON bodies,
// batches and junk are handled one way everywhere.
import { PROTOCOL_VERSION, type ConsoleOrigin, type ExchangeRecord, type JsonRpcId } from '../protocol.js';
import { decodeExchange } from '../decode/exchange.js';
import { asObject, own } from '../decode/meta.js';
import { REDACTED } from '../capture/sanitize.js';
import type { BuiltRequest, ConsoleRequest, ConsoleResponse, InputRequest, JsonRpcRequest, RoundReading, SendLink, Transport } from './types.js';

/** Where a Console record sits in its capture. */
export interface RecordPlace {
  id: string;
  seq: number;
  session?: string;
  client?: string;
  derivedFrom?: string;
  /** The Console action that sent it; else the one its request's link names. */
  origin?: ConsoleOrigin;
}

/**
 * The ExchangeRecord of one send (a failed send is a `failed` record with its error). A
 * linked send keeps the id it was sent under (`res.recordId`), not `place.id`: the service
 * worker may have stored it under that id, and every view must name the one record.
 */
export function consoleRecord(req: ConsoleRequest, res: ConsoleResponse, place: RecordPlace): ExchangeRecord {
  const startedAt = res.sentAt ?? Date.now();
  const record: ExchangeRecord = {
    v: PROTOCOL_VERSION,
    id: res.recordId ?? place.id,
    seq: place.seq,
    source: 'console',
    startedAt,
    request: { method: req.method, url: req.url, headers: req.headers.map((h) => ({ ...h })), body: req.body },
    state: res.error !== undefined && res.status === 0 ? 'failed' : 'complete',
  };
  if (place.session !== undefined) record.session = place.session;
  if (place.client !== undefined) record.client = place.client;
  if (place.derivedFrom !== undefined) record.derivedFrom = place.derivedFrom;
  const origin = place.origin ?? originOfLink(req.link);
  if (origin !== undefined) record.origin = origin;
  if (res.status > 0) {
    record.response = { status: res.status, headers: res.headers.map((h) => ({ ...h })), receivedAt: res.receivedAt ?? startedAt };
    if (res.statusText) record.response.statusText = res.statusText;
    if (res.events !== undefined) record.response.events = res.events;
    else if (res.body !== undefined) record.response.body = res.body;
  }
  record.endedAt = res.endedAt ?? record.response?.receivedAt ?? startedAt;
  if (res.error !== undefined) record.error = res.error;
  return record;
}

/** Reads the answer to request `id` from a recorded exchange. */
export function readRound(record: ExchangeRecord, id: JsonRpcId): RoundReading {
  const status = record.response?.status ?? 0;
  if (!record.response) return { kind: 'failed', status, message: record.error ?? 'no response' };
  const decoded = decodeExchange(record);
  let answer = undefined;
  for (const m of decoded.received) if ((m.kind === 'result' || m.kind === 'error') && m.id === id) answer = m;
  // An error answered with a null id (the server could not read ours) still answers us.
  if (!answer) answer = decoded.received.find((m) => m.kind === 'error' && m.id === null);
  if (!answer) {
    // The relay (and other proxies) say why they could not forward in a JSON body of their
    // own, `{"error": "…"}`: that is the cause to show (ECONNREFUSED, an unknown target).
    const cause = proxyError(record.response.body);
    if (cause !== null) return { kind: 'failed', status, message: `HTTP ${status}: ${cause}` };
    const why = decoded.problems[0]?.message ?? (decoded.received.length === 0 ? 'an empty body' : `no answer to id ${JSON.stringify(id)}`);
    return { kind: 'failed', status, message: `HTTP ${status} with ${why}` };
  }
  if (answer.kind === 'error') return { kind: 'error', status, error: answer.error ?? { code: 0, message: 'malformed error' } };
  const result = answer.result ?? {};
  if (own(result, 'resultType') === 'input_required') {
    const reqs: Record<string, InputRequest> = {};
    const raw = asObject(own(result, 'inputRequests'));
    if (raw) for (const [k, v] of Object.entries(raw)) {
      const o = asObject(v);
      const method = own(o, 'method');
      const params = asObject(own(o, 'params'));
      reqs[k] = { method: typeof method === 'string' ? method : '', ...(params ? { params } : {}) };
    }
    const state = own(result, 'requestState');
    return { kind: 'input_required', result, inputRequests: reqs, ...(typeof state === 'string' ? { requestState: state } : {}) };
  }
  return { kind: 'complete', result };
}

/** The JSON-RPC response message for a reading (what replay diffs), or null for a failure. */
export function answerMessage(reading: RoundReading, id: JsonRpcId): Record<string, unknown> | null {
  if (reading.kind === 'failed') return null;
  return reading.kind === 'error' ? { jsonrpc: '2.0', id, error: reading.error } : { jsonrpc: '2.0', id, result: reading.result };
}

/**
 * Calls the transport; a throw (a bug in a custom transport, a fetch that rejects) becomes a
 * failure. A linked request's answer names its record id (`recordId`), even a failure's.
 */
export async function sendSafely(send: Transport, req: ConsoleRequest): Promise<ConsoleResponse> {
  const sentAt = Date.now();
  const named = (res: ConsoleResponse): ConsoleResponse => (req.link && res.recordId === undefined ? { ...res, recordId: req.link.id } : res);
  try {
    const res = await send(req);
    return named(res.sentAt === undefined ? { ...res, sentAt } : res);
  } catch (err) {
    return named({ status: 0, headers: [], sentAt, endedAt: Date.now(), error: err instanceof Error ? err.message : String(err) });
  }
}

/** The origin a send's link names, as a record carries it. */
export function originOfLink(link: SendLink | undefined): ConsoleOrigin | undefined {
  if (link?.origin === undefined) return undefined;
  return link.run !== undefined ? { kind: link.origin, run: link.run } : { kind: link.origin };
}

/** The link fields that carry an origin (spread into a SendLink). */
export function linkOrigin(origin: ConsoleOrigin | undefined): Pick<SendLink, 'origin' | 'run'> {
  if (origin === undefined) return {};
  return origin.run !== undefined ? { origin: origin.kind, run: origin.run } : { origin: origin.kind };
}

/** A fresh id for one action's sends (a connect, a tamper run, a replay). */
export function newRunId(): string {
  return `r-${crypto.randomUUID().slice(0, 8)}`;
}

/** A fresh record id (random, so two Console sessions never collide). */
export function newRecordId(): string {
  return `c-${crypto.randomUUID()}`;
}

// Headers fetch sets itself, or that belong to one exchange only.
const NOT_RESENT = /^(host|content-length|connection|keep-alive|transfer-encoding|accept-encoding|cookie|origin|referer|user-agent|sec-.*|proxy-.*|mcp-session-id)$/i;

/** A captured request as a BuiltRequest, or null. Browser-owned and per-exchange headers are
 *  left out, and so are values a sanitized capture redacted (re-sending "[redacted]" helps no one). */
export function builtFromRecord(record: ExchangeRecord): BuiltRequest | null {
  const m = decodeExchange(record).sent[0];
  if (!m || m.kind !== 'request' || m.method === undefined) return null;
  const body: JsonRpcRequest = { jsonrpc: '2.0', id: m.id ?? null, method: m.method, params: m.params ?? {} };
  return { body, headers: record.request.headers.filter((h) => !NOT_RESENT.test(h.name) && h.value !== REDACTED).map((h) => ({ ...h })) };
}

/** The reason a proxy gave in a body of its own (`{"error": "…"}`, no JSON-RPC), cut to a
 *  readable length; null for any other body. */
export function proxyError(body: string | undefined): string | null {
  if (body === undefined || body.length > 64_000) return null;
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return null;
  }
  const o = asObject(v);
  const error = own(o, 'error');
  if (o === null || own(o, 'jsonrpc') !== undefined || typeof error !== 'string' || error.trim() === '') return null;
  return error.length > 400 ? `${error.slice(0, 399)}…` : error;
}
