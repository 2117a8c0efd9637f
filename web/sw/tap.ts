// One tapped request: forward it, stream the answer back through a pass-through
// TransformStream that records each chunk, and write the exchange as it goes.
//
// Fail-open contract. Before the request leaves, any error hands the original request to
// the network untouched. After it left, the page gets exactly what the network gave
// (the response, or the same failure); a recording error only stops recording.
//
// Hazard: never tee() or clone() the response. A tee buffers everything one branch has
// not read and keeps the upstream open after the page cancels; in 2026 closing the
// stream IS cancellation, so it must reach the server.
//
// Console sends carry a link header (console-link.ts): the analysis worker saved the send's
// record as pending under that id before sending, and the tap fills it in (fillExchange:
// same id, same seq, in the session it names; a record already final is left standing),
// strips the header on every path out (the server never sees it), and marks the answer so
// the worker knows its send was taken. The worker stores its own copy only when it was not,
// so there is one copy. A header it cannot read is stripped and the send is not recorded
// here: the worker, seeing no mark, keeps its copy.
import { TAPPED_HEADER, type SendLink } from '../../worker/console/link.js';
import type { CaptureStore } from '../../worker/storage/index.js';
import { forwardRequest, markTapped, readLink, withoutLink } from './console-link.js';
import { ExchangeWriter, type Announce } from './exchange-writer.js';
import { ResponseRecording, headerPairs } from '../../worker/capture/recording.js';

export interface TapDeps {
  store: CaptureStore;
  announce: Announce;
  /** The capture session id (cached by the caller, read from storage when missing). */
  session: () => Promise<string>;
  /** The URL to record for a request URL (a relay forward is recorded as its target's). */
  recordedUrl?: (url: string) => string;
}

// Statuses whose responses must be built with a null body.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return err === undefined ? 'cancelled' : String(err);
}

export class Tap {
  /** Settles when the exchange's last write is done: hand it to `event.waitUntil`. */
  readonly done: Promise<void>;
  #settle!: (p: Promise<void>) => void;
  readonly #deps: TapDeps;

  constructor(deps: TapDeps) {
    this.#deps = deps;
    this.done = new Promise<void>((resolve) => {
      this.#settle = (p) => resolve(p.catch(() => undefined));
    });
  }

  /** Not tapped after all (the watch list said no): the request goes out untouched, but for a link header. */
  async skip(req: Request): Promise<Response> {
    this.#settle(Promise.resolve());
    if (readLink(req).kind === 'none') return fetch(req);
    const bytes = req.method === 'GET' || req.method === 'HEAD' ? null : await req.arrayBuffer();
    return fetch(forwardRequest(req, bytes));
  }

  async run(req: Request, client: string | undefined): Promise<Response> {
    // 1. Before the request leaves: fail open. The body is read once, as bytes, and the
    //    same bytes go upstream: a clone() would tee the upload through JS streams, which
    //    measurably slows every tapped request (see test/bench/tap.ts).
    let writer: ExchangeWriter;
    let forward: Request;
    let bytes: ArrayBuffer | null = null;
    let link: SendLink | undefined;
    try {
      const startedAt = Date.now();
      const reading = readLink(req);
      bytes = req.method === 'GET' || req.method === 'HEAD' ? null : await req.arrayBuffer();
      forward = forwardRequest(req, bytes);
      if (reading.kind === 'unreadable') {
        this.#settle(Promise.resolve());
        return fetch(forward);
      }
      link = reading.kind === 'link' ? reading.link : undefined;
      writer = new ExchangeWriter(this.#deps.store, this.#deps.announce, link?.id ?? crypto.randomUUID(), { fill: link !== undefined });
      const id = writer.id;
      const l = link;
      const headers = headerPairs(forward.headers);
      writer.start(async () => ({
        id, source: l ? 'console' : 'sw', startedAt, state: 'pending', session: l?.session ?? (await this.#deps.session()),
        ...(l?.derivedFrom !== undefined ? { derivedFrom: l.derivedFrom } : {}),
        ...(l?.origin !== undefined ? { origin: l.run !== undefined ? { kind: l.origin, run: l.run } : { kind: l.origin } } : {}),
        ...(client ? { client } : {}),
        request: { method: req.method, url: this.#deps.recordedUrl?.(req.url) ?? req.url, headers, ...(bytes ? { body: new TextDecoder().decode(bytes) } : {}) },
      }));
    } catch {
      if (!bytes) return this.skip(req);
      // The body was already read: send the same bytes, untouched otherwise (but for our header).
      this.#settle(Promise.resolve());
      return fetch(req.url, {
        method: req.method, headers: withoutLink(req.headers), body: bytes, mode: req.mode, credentials: req.credentials,
        cache: req.cache, redirect: req.redirect, referrer: req.referrer, integrity: req.integrity, signal: req.signal,
      });
    }

    // 2. Forward. The request's signal follows the page's AbortController.
    const signal = req.signal;
    let upstream: Response;
    try {
      upstream = await fetch(forward);
    } catch (err) {
      this.#settle(writer.end({ state: signal.aborted ? 'aborted' : 'failed', endedAt: Date.now(), error: describe(err) }));
      throw err; // the page sees the failure it would have seen without the tap
    }

    // 3. Stream back, recording on the way. Nothing here may lose the response.
    try {
      const recording = new ResponseRecording(upstream, { onEvent: (ev) => writer.event(ev) });
      writer.head(recording.head, recording.eventStream);
      if (!upstream.body || NULL_BODY.has(upstream.status) || upstream.type === 'opaque' || upstream.type === 'opaqueredirect') {
        this.#settle(writer.end(recording.end('complete')));
        return link ? markOrKeep(upstream, NULL_BODY.has(upstream.status) ? null : upstream.body, link.id) : upstream;
      }
      return this.#passThrough(upstream, upstream.body, writer, recording, signal, link);
    } catch (err) {
      this.#settle(writer.end({ state: 'failed', endedAt: Date.now(), error: `not recorded: ${describe(err)}` }));
      return upstream;
    }
  }

  #passThrough(upstream: Response, body: ReadableStream<Uint8Array>, writer: ExchangeWriter, recording: ResponseRecording, signal: AbortSignal, link: SendLink | undefined): Response {
    let recordingOk = true;
    // Recording runs after the chunk is enqueued, so the page never waits for it.
    const record = (chunk: Uint8Array): void => {
      if (!recordingOk) return;
      try {
        recording.chunk(chunk);
      } catch {
        recordingOk = false;
      }
    };
    let ended = false;
    const finish = (state: 'complete' | 'aborted' | 'failed', error?: string): void => {
      if (ended) return;
      ended = true;
      this.#settle(writer.end(recording.end(state, error)));
    };
    const stream = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        record(chunk);
      },
      flush() {
        finish('complete');
      },
    });
    // Cut after the answer began, by either side: the page cancelling its body errors our
    // writable side (pipeTo then cancels the upstream body, closing the connection to the
    // server); the target going away mid-body is a network TypeError. Both are recorded
    // `aborted` with what arrived; the error says which side cut it.
    body.pipeTo(stream.writable).catch((err: unknown) => {
      const byPage = signal.aborted || !(err instanceof TypeError);
      finish('aborted', byPage ? describe(err) : `The target closed the connection before the response ended (${describe(err)})`);
    });
    const headers = new Headers(upstream.headers);
    if (link) headers.set(TAPPED_HEADER, link.id);
    return new Response(stream.readable, { status: upstream.status, statusText: upstream.statusText, headers });
  }
}

// The mark on an answer with no body to stream (a 204, an opaque answer…). A status a
// Response cannot be built with (1xx) keeps the answer unmarked: the page then learns from
// the tap's notice that its send was taken.
function markOrKeep(upstream: Response, body: ReadableStream<Uint8Array> | null, id: string): Response {
  try {
    return markTapped(upstream, body, id);
  } catch {
    return upstream;
  }
}
