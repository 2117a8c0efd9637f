// The recording of one exchange's response, shared by every place that records traffic
// (the service worker tap, the relay, the Console transport): the head from a fetch
// Response, then each body chunk as it passes through, into the whole body text or, for an
// event stream, events stamped with their arrival times, `retry:` and the cut tail.
//
// Hazard: callers observe chunks on the way through and never hold bytes back for this;
// a chunk's recording must cost only decoding and parsing. The clock is injected so the
// times are testable (and so Node and the service worker stamp the same way).
import type { ExchangeRecord, ExchangeState, HeaderPair, SseEventRecord } from '../protocol.js';
import { EventStreamReader } from './event-stream.js';

/** Epoch milliseconds now. */
export type Clock = () => number;

/** The response head as recorded (the record's `response` before any body). */
export type RecordedHead = Pick<NonNullable<ExchangeRecord['response']>, 'status' | 'statusText' | 'headers' | 'receivedAt'>;

/** How an exchange ended, with what its body became. */
export interface RecordedEnd {
  state: Extract<ExchangeState, 'complete' | 'aborted' | 'failed'>;
  endedAt: number;
  error?: string;
  /** Whole body text (not an event stream). */
  body?: string;
  /** An event stream cut mid-event: the text after its last event, verbatim. */
  tail?: string;
}

/** Whether a Content-Type names an event stream (parameters and case ignored). */
export function isEventStream(contentType: string | null | undefined): boolean {
  return (contentType ?? '').split(';')[0].trim().toLowerCase() === 'text/event-stream';
}

/**
 * A fetch Headers as pairs. Fetch lower-cases and sorts names and joins repeats, so the wire
 * order is not recoverable here; Set-Cookie lines (when visible at all) stay one per pair.
 */
export function headerPairs(headers: Headers): HeaderPair[] {
  const out: HeaderPair[] = [];
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') out.push({ name, value });
  });
  const cookies = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [];
  for (const value of cookies) out.push({ name: 'set-cookie', value });
  return out;
}

/** Options for a ResponseRecording. */
export interface RecordingOptions {
  /** Defaults to Date.now. */
  now?: Clock;
  /** Each event as it completes (event streams only). */
  onEvent?: (ev: SseEventRecord) => void;
}

/**
 * One response being recorded: `chunk` for each piece of the body, then `end` once. An
 * event stream's events go to `onEvent` as they complete and are also kept in `events`.
 */
export class ResponseRecording {
  readonly head: RecordedHead;
  readonly eventStream: boolean;
  readonly events: SseEventRecord[] = [];
  readonly #now: Clock;
  readonly #decoder = new TextDecoder('utf-8');
  readonly #reader: EventStreamReader | null;
  readonly #parts: string[] = [];
  #end: RecordedEnd | null = null;

  constructor(response: Pick<Response, 'status' | 'statusText' | 'headers'>, opts: RecordingOptions = {}) {
    this.#now = opts.now ?? Date.now;
    this.eventStream = isEventStream(response.headers.get('content-type'));
    this.head = {
      status: response.status,
      ...(response.statusText ? { statusText: response.statusText } : {}),
      headers: headerPairs(response.headers),
      receivedAt: this.#now(),
    };
    const onEvent = opts.onEvent;
    this.#reader = this.eventStream
      ? new EventStreamReader((ev) => {
          this.events.push(ev);
          onEvent?.(ev);
        })
      : null;
  }

  /** A piece of the body passed through. Multi-byte characters may be split across pieces. */
  chunk(bytes: Uint8Array): void {
    if (this.#end) return;
    this.#text(this.#decoder.decode(bytes, { stream: true }));
  }

  /**
   * The body ended (`complete`) or was cut (`aborted` by the reader, `failed` upstream).
   * Returns the end to record; later calls return the first one unchanged.
   */
  end(state: RecordedEnd['state'], error?: string): RecordedEnd {
    if (this.#end) return this.#end;
    this.#text(this.#decoder.decode());
    const end: RecordedEnd = { state, endedAt: this.#now(), ...(error !== undefined ? { error } : {}) };
    if (this.#reader) {
      if (this.#reader.tail !== '') end.tail = this.#reader.tail;
    } else {
      end.body = this.#parts.join('');
    }
    this.#end = end;
    return end;
  }

  #text(s: string): void {
    if (s === '') return;
    if (this.#reader) this.#reader.feed(s, this.#now());
    else this.#parts.push(s);
  }
}
