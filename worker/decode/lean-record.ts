// The worker's copy of a stored exchange once it is decoded: everything but the body texts
// (request body, response body, SSE events, tail), which stay in IndexedDB and are read on
// demand (view/body-reads.ts). What analysis reads of a record (ids, times, states, status,
// headers) and what the lists show (event count) stay; the decoded messages live beside it.
//
// Hazard: a record's version is told by its body sizes (engine/entry-table.ts `stampOf`),
// so a lean copy keeps them: without them its stamp would differ from the full record's and
// the engine would decode the empty copy as a new version.
import type { ExchangeRecord } from '../protocol.js';

/** The lengths of the texts a lean copy dropped (undefined where the record had none). */
export interface BodySizes {
  request: number | undefined;
  response: number | undefined;
  events: number | undefined;
  tail: number | undefined;
}

/** A record without its body texts; `bodySizes` says what it had. */
export type LeanRecord<T extends ExchangeRecord = ExchangeRecord> = T & { bodySizes: BodySizes };

/** True for a copy made by `leanCopy` (its bodies are in storage, not here). */
export function isLean(r: ExchangeRecord): r is LeanRecord {
  return (r as Partial<LeanRecord>).bodySizes !== undefined;
}

/** The body sizes of a record, full or lean. */
export function bodySizesOf(r: ExchangeRecord): BodySizes {
  if (isLean(r)) return r.bodySizes;
  const q = r.response;
  return { request: r.request.body?.length, response: q?.body?.length, events: q?.events?.length, tail: q?.tail?.length };
}

/** Events the response held (null for a response that is not an event stream). */
export function eventCount(r: ExchangeRecord): number | null {
  return bodySizesOf(r).events ?? null;
}

/**
 * A copy of `r` without body texts (`r` itself when it has none, or is lean already). `r`
 * is left whole: whoever handed it in may still show it (the Console's own records).
 */
export function leanCopy<T extends ExchangeRecord>(r: T): T {
  if (isLean(r)) return r;
  const q = r.request;
  const res = r.response;
  const hasBody = q.body !== undefined || (res !== undefined && (res.body !== undefined || res.events !== undefined || res.tail !== undefined));
  if (!hasBody) return r;
  const bodySizes = bodySizesOf(r);
  const { body: _requestBody, ...request } = q;
  const out: LeanRecord<T> = { ...r, request, bodySizes };
  if (res !== undefined) {
    const { body: _body, events: _events, tail: _tail, ...kept } = res;
    out.response = kept;
  }
  return out;
}
