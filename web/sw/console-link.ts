// The tap's side of the link header (worker/console/link.ts): a Console send names the
// record it is filed under in a request header; the tap reads it, strips it before the
// request leaves (the server never sees it), files the exchange under it, and marks the
// answer it hands back so the page knows the send was taken.
//
// Hazard: a header cannot be removed from a fetched Request (its headers are immutable), so
// the forwarded request is a new one built from the original (method, mode, credentials,
// cache, redirect, integrity, keepalive come along) with the body bytes already read and the
// page's signal, so cancelling still reaches the server. Any init resets the referrer and
// its policy (Fetch, Request constructor step 13): both are passed again.
import { LINK_HEADER, parseLink, TAPPED_HEADER, type SendLink } from '../../worker/console/link.js';

/** What the tap does with a request's link: none, one to file under, or a header it cannot read. */
export type LinkReading = { kind: 'none' } | { kind: 'link'; link: SendLink } | { kind: 'unreadable' };

/** The link a request carries. */
export function readLink(req: Request): LinkReading {
  const value = req.headers.get(LINK_HEADER);
  if (value === null) return { kind: 'none' };
  const link = parseLink(value);
  return link ? { kind: 'link', link } : { kind: 'unreadable' };
}

/** The request's headers without the link header (a copy; the request's own are immutable). */
export function withoutLink(headers: Headers): Headers {
  const out = new Headers(headers);
  out.delete(LINK_HEADER);
  return out;
}

/**
 * The request to send upstream: `req` with `bytes` as its body (already read, null for
 * GET/HEAD), without the link header, following the page's signal. Ordinary traffic keeps
 * its headers object untouched.
 */
export function forwardRequest(req: Request, bytes: ArrayBuffer | null): Request {
  const init: RequestInit = { signal: req.signal, referrer: req.referrer, referrerPolicy: req.referrerPolicy };
  if (bytes) init.body = bytes;
  if (req.headers.has(LINK_HEADER)) init.headers = withoutLink(req.headers);
  return new Request(req, init);
}

/**
 * The answer for the page, marked as taken under `id`. A fetched Response's headers are
 * immutable, so the mark needs a new Response around the same body stream (not a clone: a
 * tee would hold the upstream open after the page cancels). Opaque answers cannot be
 * rebuilt and are returned as they are; the page then waits for the tap's notice instead.
 */
export function markTapped(res: Response, body: ReadableStream<Uint8Array> | null, id: string): Response {
  if (res.type === 'opaque' || res.type === 'opaqueredirect') return res;
  const headers = new Headers(res.headers);
  headers.set(TAPPED_HEADER, id);
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}
