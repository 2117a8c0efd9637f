// `POST /relay/ingest`: records made elsewhere (by `mrtr-inspector wrap`, which watches a
// stdio server's pipes) enter the relay's capture path here: pages get them live, the
// capture file gets them while no page listens. Only stdio records are accepted: HTTP
// exchanges are the relay's and the service worker's to record, and a forged one must not
// pass for either.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { readRecord } from '../../worker/capture/record-read.js';
import { isProblem } from '../../worker/capture/fields.js';
import { readBody } from './forward.js';
import { foreignOriginProblem, refuse, tokenMatches } from './guards.js';

/** The header that carries the relay token on ingest and stdio-attach requests. */
export const TOKEN_HEADER = 'x-mrtr-relay-token';
/** A batch may carry a 50 MB line and then some. */
export const MAX_INGEST_BYTES = 256 * 1024 * 1024;

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

/** Parses an ingest body (a JSON array of ExchangeRecords, each with `stdio`). */
export function parseIngest(text: string): ExchangeRecord[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'The body must be a JSON array of exchange records.';
  }
  if (!Array.isArray(value)) return 'The body must be a JSON array of exchange records.';
  const out: ExchangeRecord[] = [];
  for (let i = 0; i < value.length; i++) {
    const rec = readRecord(value[i], `[${i}]`, 0);
    if (isProblem(rec)) return `Record ${i} is not an exchange record: ${rec.where}: ${rec.message}`;
    if (!rec.stdio) return `Record ${i} has no stdio marker: only stdio records are ingested.`;
    out.push(rec);
  }
  return out;
}

/** Answers `POST /relay/ingest`, handing each record to `ingest`. */
export async function handleIngest(req: IncomingMessage, res: ServerResponse, token: string, ingest: (r: ExchangeRecord) => void): Promise<void> {
  if ((req.method ?? '').toUpperCase() !== 'POST') return refuse(res, 405, 'POST a JSON array of records to /relay/ingest.');
  if (!externalCaller(req, res, token)) return;
  const bytes = await readBody(req, MAX_INGEST_BYTES);
  if (!bytes) return refuse(res, 413, `Ingest batches are limited to ${MAX_INGEST_BYTES / (1024 * 1024)} MiB.`);
  const records = parseIngest(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  if (typeof records === 'string') return refuse(res, 400, records);
  for (const r of records) ingest(r);
  const body = JSON.stringify({ accepted: records.length });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
