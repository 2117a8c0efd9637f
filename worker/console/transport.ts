// The Console's transport over the fetch API: the page's fetch in the browser (so the
// service worker taps and records it like any other traffic), Node's fetch in the CLI and
// tests. Network failures come back as data (status 0 and the reason), never as throws.
//
// With `tap` hooks (the page), a linked send carries the link header, and the answer says
// whether the tap took it (`tapped`, the tap's mark on the answer): the tap then fills in the
// record the caller saved as pending before sending, and the caller stores its own copy only
// when it was not taken, so each send is stored once. Nothing waits for the tap's writes.
// Without hooks (Node) the link is ignored.
import type { HeaderPair, SseEventRecord } from '../protocol.js';
import { isEventStream, ResponseRecording } from '../capture/recording.js';
import { formatLink, LINK_HEADER, TAPPED_HEADER } from './link.js';
import type { ConsoleRequest, ConsoleResponse, Transport } from './types.js';

/** What the page knows about its capture service worker. */
export interface TapHooks {
  /**
   * Whether a send to `url` will pass through a tap that reads the link header: a service
   * worker controls the page and watches that URL. Only then is the header added: a page
   * with no service worker would send it to the server itself (and, cross-origin, make the
   * request need a CORS preflight the server may refuse).
   */
  taps(url: string): boolean | Promise<boolean>;
}

/** Options for fetchTransport. */
export interface FetchTransportOptions {
  /** Defaults to the global fetch (the page's own, in the browser). */
  fetch?: typeof fetch;
  /** Give up on one exchange after this long (default 30 s). */
  timeoutMs?: number;
  /** The page's capture service worker, for linked sends (see TapHooks). */
  tap?: TapHooks;
  /**
   * Asked before every send (send-guard.ts, with the page's prompt): undefined lets it go,
   * a reason refuses it, and the send comes back as a failure with that reason, unsent.
   */
  guard?: (url: string) => string | undefined | Promise<string | undefined>;
}

/** Why a fetch failed, with the cause Node hides under "fetch failed" (ECONNREFUSED …). */
function failure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError') return 'timed out waiting for the server';
  const cause = (err as Error & { cause?: unknown }).cause;
  const c = cause instanceof Error ? ((cause as Error & { code?: string }).code ?? cause.message) : undefined;
  return c !== undefined ? `${err.message} (${c})` : err.message;
}

function requestId(body: string): unknown {
  try {
    return (JSON.parse(body) as { id?: unknown }).id;
  } catch {
    return undefined;
  }
}

/**
 * A Transport over fetch. An event stream is read event by event with each event's
 * arrival time, and the read stops at the answer to our request id: in 2026 the server
 * ends the stream after it, and holding a stream open past it would only leak it. With
 * `tap`, a linked request carries the link header when the tap will see it, and the answer
 * says whether the tap took it (`tapped`), as soon as the answer is in.
 */
export function fetchTransport(opts: FetchTransportOptions = {}): Transport {
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return async (req: ConsoleRequest): Promise<ConsoleResponse> => {
    const refusal = opts.guard ? await opts.guard(req.url) : undefined;
    if (refusal !== undefined) {
      const at = Date.now();
      return { status: 0, headers: [], sentAt: at, endedAt: at, error: refusal };
    }
    // In doubt (the question itself failed), no header: the Console then keeps its own copy.
    const tap = opts.tap;
    const link = req.link && tap && (await Promise.resolve().then(() => tap.taps(req.url)).catch(() => false)) ? req.link : undefined;
    return exchange(req, link ? { name: LINK_HEADER, value: formatLink(link) } : undefined);
  };

  async function exchange(req: ConsoleRequest, linkHeader: HeaderPair | undefined): Promise<ConsoleResponse> {
    const sentAt = Date.now();
    let res: Response;
    try {
      res = await doFetch(req.url, {
        method: req.method,
        headers: [...req.headers, ...(linkHeader ? [linkHeader] : [])].map((h) => [h.name, h.value] as [string, string]),
        body: req.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      return { status: 0, headers: [], sentAt, endedAt: Date.now(), error: failure(err) };
    }
    const receivedAt = Date.now();
    // The tap's mark is ours, not the server's: it says who stored the send, and is not kept.
    const mark = res.headers.get(TAPPED_HEADER);
    const headers: HeaderPair[] = [];
    res.headers.forEach((value, name) => {
      if (name !== TAPPED_HEADER) headers.push({ name, value });
    });
    const tapped = linkHeader && req.link && mark === req.link.id ? { tapped: { id: mark } } : {};
    const head = { status: res.status, statusText: res.statusText, headers, sentAt, receivedAt, ...tapped };
    try {
      if (isEventStream(res.headers.get('content-type')) && res.body) {
        const events = await readEvents(res, res.body, requestId(req.body));
        return { ...head, events, endedAt: Date.now() };
      }
      return { ...head, body: await res.text(), endedAt: Date.now() };
    } catch (err) {
      return { ...head, endedAt: Date.now(), error: `the response was cut: ${failure(err)}` };
    }
  }
}

// Reads the stream through the shared recording until the answer to our request id.
async function readEvents(res: Response, body: ReadableStream<Uint8Array>, id: unknown): Promise<SseEventRecord[]> {
  let answered = false;
  const recording = new ResponseRecording(res, {
    onEvent(ev) {
      try {
        const m = JSON.parse(ev.data) as { id?: unknown; result?: unknown; error?: unknown };
        if (m && m.id === id && (m.result !== undefined || m.error !== undefined)) answered = true;
      } catch {
        // not JSON: the decoder reports it later
      }
    },
  });
  const reader = body.getReader();
  try {
    while (!answered) {
      const { done, value } = await reader.read();
      if (done) break;
      recording.chunk(value);
    }
    recording.end('complete');
  } finally {
    if (answered) await reader.cancel().catch(() => undefined);
    else reader.releaseLock();
  }
  return recording.events;
}
