// The Console's transport over the fetch API: the page's fetch in the browser (so the
// service worker taps and records it like any other traffic), Node's fetch in the CLI and
// tests. Network failures come back as data (status 0 and the reason), never as throws.
import { createParser } from 'eventsource-parser';
import type { HeaderPair, SseEventRecord } from '../protocol.js';
import type { ConsoleRequest, ConsoleResponse, Transport } from './types.js';

/** Options for fetchTransport. */
export interface FetchTransportOptions {
  /** Defaults to the global fetch (the page's own, in the browser). */
  fetch?: typeof fetch;
  /** Give up on one exchange after this long (default 30 s). */
  timeoutMs?: number;
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
 * ends the stream after it, and holding a stream open past it would only leak it.
 */
export function fetchTransport(opts: FetchTransportOptions = {}): Transport {
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return async (req: ConsoleRequest): Promise<ConsoleResponse> => {
    const sentAt = Date.now();
    let res: Response;
    try {
      res = await doFetch(req.url, {
        method: req.method,
        headers: req.headers.map((h) => [h.name, h.value] as [string, string]),
        body: req.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      return { status: 0, headers: [], sentAt, endedAt: Date.now(), error: failure(err) };
    }
    const receivedAt = Date.now();
    const headers: HeaderPair[] = [];
    res.headers.forEach((value, name) => headers.push({ name, value }));
    const head = { status: res.status, statusText: res.statusText, headers, sentAt, receivedAt };
    try {
      if ((res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream') && res.body) {
        const events = await readEvents(res.body, requestId(req.body));
        return { ...head, events, endedAt: Date.now() };
      }
      return { ...head, body: await res.text(), endedAt: Date.now() };
    } catch (err) {
      return { ...head, endedAt: Date.now(), error: `the response was cut: ${failure(err)}` };
    }
  };
}

async function readEvents(body: ReadableStream<Uint8Array>, id: unknown): Promise<SseEventRecord[]> {
  const events: SseEventRecord[] = [];
  let answered = false;
  const parser = createParser({
    onEvent(ev) {
      const rec: SseEventRecord = { t: Date.now(), data: ev.data };
      if (ev.event !== undefined) rec.event = ev.event;
      if (ev.id !== undefined) rec.id = ev.id;
      events.push(rec);
      try {
        const m = JSON.parse(ev.data) as { id?: unknown; result?: unknown; error?: unknown };
        if (m && m.id === id && (m.result !== undefined || m.error !== undefined)) answered = true;
      } catch {
        // not JSON: the decoder reports it later
      }
    },
  });
  const reader = body.getReader();
  const text = new TextDecoder();
  try {
    while (!answered) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(text.decode(value, { stream: true }));
    }
  } finally {
    if (answered) await reader.cancel().catch(() => undefined);
    else reader.releaseLock();
  }
  return events;
}
