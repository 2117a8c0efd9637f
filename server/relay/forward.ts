import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Anything that answers a web Request: global fetch, or the in-process demo handler. */
export type Fetcher = (request: Request) => Promise<Response>;

/** Observes a response as it passes through (the recorder); never holds bytes back. */
export interface ResponseTap {
  head(response: Response): void;
  chunk(bytes: Uint8Array): void;
  end(): void;
  fail(state: 'aborted' | 'failed', error: string): void;
}

/** Request bodies larger than this are refused (MCP requests are single JSON-RPC messages). */
export const MAX_REQUEST_BODY = 16 * 1024 * 1024;

// Headers that describe one hop, not the message (RFC 9110 §7.6.1), plus those the relay
// must own: Host and Origin are ours, the length is recomputed, and Accept-Encoding is
// dropped so bodies come back readable for the record (fetch would decode them anyway).
// Referer is dropped because a browser that loaded anything under /relay/<token>/ names
// that URL, token included, as the referrer of its next requests.
const NEVER_FORWARDED = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade',
  'proxy-authorization', 'proxy-authenticate', 'http2-settings', 'expect',
  'host', 'origin', 'content-length', 'accept-encoding', 'referer',
]);

/** Request headers never recorded either: they may carry the relay URL and its token. */
export function isUnrecordedRequestHeader(name: string): boolean {
  return name.toLowerCase() === 'referer';
}

// Response headers not passed back: hop-by-hop, and length/encoding, because fetch hands
// us a decoded body that we re-chunk. The rest would let a target act on the inspector's
// own origin, where its answer is served: its CSP would replace ours (the relay's answers
// are a sandbox, see relay.ts), cookies would land on our origin, Service-Worker-Allowed
// would widen a worker's scope, Clear-Site-Data would wipe the page's captures, and a
// looser Referrer-Policy would leak relay URLs with their token.
const NEVER_RETURNED = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade',
  'content-length', 'content-encoding', 'referrer-policy',
  'content-security-policy', 'content-security-policy-report-only', 'set-cookie', 'set-cookie2',
  'service-worker-allowed', 'clear-site-data', 'x-content-type-options', 'refresh', 'link',
]);

/**
 * Reads a node request body whole, or undefined when it is larger than `limit`. With a
 * Content-Length (the usual case) the chunks are copied straight into one buffer of that
 * size as they arrive, so the body is held once, not as chunks plus their concatenation.
 */
export async function readBody(req: IncomingMessage, limit = MAX_REQUEST_BODY): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isSafeInteger(declared) && declared >= 0) {
    if (declared > limit) return undefined;
    // Node's parser never hands over more than the declared length.
    const whole = new Uint8Array(declared);
    let at = 0;
    for await (const part of req) {
      whole.set(part as Buffer, at);
      at += (part as Buffer).length;
    }
    return at === declared ? whole : whole.slice(0, at);
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    size += (part as Buffer).length;
    if (size > limit) return undefined;
    parts.push(part as Buffer);
  }
  // One copy of the body: a view on the concatenated buffer, not another copy of it.
  const whole = Buffer.concat(parts, size);
  parts.length = 0;
  return new Uint8Array(whole.buffer, whole.byteOffset, whole.byteLength) as Uint8Array<ArrayBuffer>;
}

/**
 * A request body for fetch that is `bytes` itself. Given a Uint8Array, fetch copies it
 * (the body is "extracted" as a copy); a stream that hands over the same buffer is sent as
 * it is, and the explicit length keeps the request framed by Content-Length, not chunked.
 */
export function bodyOnce(bytes: Uint8Array, headers: Headers): { body: ReadableStream<Uint8Array>; duplex: 'half' } {
  headers.set('content-length', String(bytes.length));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return { body, duplex: 'half' };
}

/**
 * The headers to send upstream, in the client's order: everything except hop-by-hop ones,
 * those named in Connection, and whatever `dropAlso` names (lower-case).
 */
export function upstreamHeaders(rawHeaders: readonly string[], dropAlso: (name: string) => boolean = () => false): Headers {
  const named = new Set<string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === 'connection') for (const n of rawHeaders[i + 1].split(',')) named.add(n.trim().toLowerCase());
  }
  const out = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (NEVER_FORWARDED.has(name) || named.has(name) || dropAlso(name)) continue;
    out.append(rawHeaders[i], rawHeaders[i + 1]);
  }
  return out;
}

/** The response headers to pass back to the client, minus NEVER_RETURNED and `dropAlso`. */
export function downstreamHeaders(headers: Headers, dropAlso: (name: string) => boolean = () => false): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  headers.forEach((value, name) => {
    if (NEVER_RETURNED.has(name) || dropAlso(name)) return;
    out[name] = value;
  });
  return out;
}

// Waits until the socket wants more, or the client is gone (then `drain` never comes).
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a web Response to a node response chunk by chunk as it arrives, and tells `tap`.
 *
 * Streaming hazards, each handled here:
 * - Nothing is buffered: each chunk is written the moment the upstream yields it, and the
 *   head is flushed before the first chunk, so an event stream's first event is not held.
 * - Backpressure: a slow client pauses reading from upstream (await `drain`), so memory is
 *   bounded by the socket buffers, not by the stream's length.
 * - Cancellation: in 2026 a client cancels by closing the stream. When our client's
 *   socket closes first, `abort` aborts the upstream fetch and the reader is cancelled, so
 *   the server sees its connection close too.
 * - The target going down mid-stream (its process dies, its socket is reset): the read
 *   rejects. The exchange is recorded `aborted` with what arrived so far (events, the
 *   unterminated tail), never dropped, and the client's connection is cut so it sees a
 *   broken stream rather than a clean end it would take for a complete answer.
 */
export async function pipeResponse(
  upstream: Response,
  res: ServerResponse,
  headers: OutgoingHttpHeaders,
  abort: AbortController,
  tap?: ResponseTap,
): Promise<void> {
  res.writeHead(upstream.status, upstream.statusText || undefined, headers);
  res.flushHeaders();
  tap?.head(upstream);
  if (!upstream.body) {
    res.end();
    tap?.end();
    return;
  }
  const reader = upstream.body.getReader();
  let clientGone = false;
  const onClose = () => {
    if (res.writableFinished) return;
    clientGone = true;
    abort.abort();
    reader.cancel().catch(() => undefined);
  };
  if (res.destroyed) onClose();
  else res.on('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || clientGone) break;
      tap?.chunk(value);
      if (!res.write(value)) await drained(res);
    }
    if (clientGone) {
      tap?.fail('aborted', 'The client closed the connection before the response ended.');
    } else {
      res.end();
      tap?.end();
    }
  } catch (err) {
    if (clientGone) {
      tap?.fail('aborted', 'The client closed the connection before the response ended.');
    } else {
      tap?.fail('aborted', `The target closed the connection before the response ended: ${describeError(err)}`);
      // Cut the client's connection too, so it sees a broken stream, not a clean end.
      res.destroy();
    }
  } finally {
    res.off('close', onClose);
  }
}

// A fetch error's useful part: undici hides the errno under `cause`.
export function describeError(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return cause ? `${e.message ?? String(err)} (${cause})` : (e?.message ?? String(err));
}
