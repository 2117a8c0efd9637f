// `POST /relay/ingest`: records made elsewhere (by `mrtr-inspector wrap`, which watches a
// stdio server's pipes) enter the relay's capture path here: pages get them live, the
// capture file gets them while no page listens. Only stdio records are accepted: HTTP
// exchanges are the relay's and the service worker's to record, and a forged one must not
// pass for either.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { readRecord } from '../../worker/capture/record-read.js';
import { isObj, isProblem, own } from '../../worker/capture/fields.js';
import { RELAY_PUSH_VERSION, type DeltaPush } from '../../worker/capture/relay-push.js';
import type { IngestedRecords } from './ingest-store.js';
import { readBody } from './forward.js';
import { foreignOriginProblem, refuse, tokenMatches } from './guards.js';

/** The header that carries the relay token on ingest and stdio-attach requests. */
export const TOKEN_HEADER = 'x-mrtr-relay-token';
/** A batch's most bytes: wrap sends at most 8 MiB at once, or one record (4 MiB of each body,
 *  escaped as JSON). Ingests count against the relay's memory as uploads do. */
export const MAX_INGEST_BYTES = 32 * 1024 * 1024;

/** Reads a token-guarded, non-browser request; answers and returns false when refused. */
export function externalCaller(req: IncomingMessage, res: ServerResponse, token: string): boolean {
  const originIssue = foreignOriginProblem(req);
  if (originIssue) return (refuse(res, 403, originIssue), false);
  const given = req.headers[TOKEN_HEADER];
  if (typeof given !== 'string' || !tokenMatches(token, given)) {
    refuse(res, 403, `Refused: ${TOKEN_HEADER} must carry the relay token printed when the inspector started (wrap reads it from the inspector's 0600 info file; a wrap of another user, or with another MRTR_RELAY_DIR, does not have it).`);
    return false;
  }
  return true;
}

/** Parses an ingest body: a JSON array of stdio ExchangeRecords (each with `stdio` and a
 *  `stdio://` URL) and deltas of open ones (relay-push.ts). */
export function parseIngest(text: string): (ExchangeRecord | DeltaPush)[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'The body must be a JSON array of exchange records.';
  }
  if (!Array.isArray(value)) return 'The body must be a JSON array of exchange records.';
  const out: (ExchangeRecord | DeltaPush)[] = [];
  for (let i = 0; i < value.length; i++) {
    const v: unknown = value[i];
    if (isObj(v) && own(v, 'push') !== undefined) {
      const d = v as Partial<DeltaPush>;
      if (d.push !== RELAY_PUSH_VERSION || d.kind !== 'delta' || typeof d.id !== 'string' || (d.events !== undefined && typeof d.from !== 'number')) {
        return `Record ${i} is not a delta the relay reads (push ${RELAY_PUSH_VERSION}, kind "delta", id, and from with events).`;
      }
      out.push(d as DeltaPush);
      continue;
    }
    const rec = readRecord(v, `[${i}]`, 0);
    if (isProblem(rec)) return `Record ${i} is not an exchange record: ${rec.where}: ${rec.message}`;
    if (!rec.stdio) return `Record ${i} has no stdio marker: only stdio records are ingested.`;
    // A stdio record is never HTTP traffic: one that names an http(s) URL would pass for a
    // call the relay or the page recorded.
    if (!rec.request.url.startsWith('stdio://')) return `Record ${i} is marked stdio but its URL is not stdio://<name>: refused.`;
    out.push(rec);
  }
  return out;
}

/** Ingest bodies read at once; more are refused as busy (each may hold MAX_INGEST_BYTES). */
export const MAX_INGESTS_AT_ONCE = 2;

/** Answers `POST /relay/ingest`, handing the batch to `records` (ingest-store.ts). */
export async function handleIngest(req: IncomingMessage, res: ServerResponse, token: string, records: IngestedRecords, maxBytes = MAX_INGEST_BYTES): Promise<void> {
  if ((req.method ?? '').toUpperCase() !== 'POST') return refuse(res, 405, 'POST a JSON array of records to /relay/ingest.');
  if (!externalCaller(req, res, token)) return;
  if (records.reading >= MAX_INGESTS_AT_ONCE) {
    res.setHeader('retry-after', '1');
    return refuse(res, 503, `The relay is busy: ${MAX_INGESTS_AT_ONCE} ingest batches are being read. Retry shortly.`);
  }
  records.reading++;
  let parsed: (ExchangeRecord | DeltaPush)[] | string;
  try {
    const bytes = await readBody(req, maxBytes);
    if (!bytes) return refuse(res, 413, `Ingest batches are limited to ${maxBytes} bytes; send fewer records at once.`);
    parsed = parseIngest(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } finally {
    records.reading--;
  }
  if (typeof parsed === 'string') return refuse(res, 400, parsed);
  const taken = records.take(parsed);
  if ('status' in taken) {
    if (taken.status === 503) res.setHeader('retry-after', '1');
    return refuse(res, taken.status, taken.message);
  }
  const body = JSON.stringify({ accepted: parsed.length, ...(taken.resend.length ? { resend: taken.resend } : {}) });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
