import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { BodyTruncation, ExchangeRecord, HeaderPair, SseEventRecord } from '../../worker/protocol.js';
import { PROTOCOL_VERSION } from '../../worker/protocol.js';

/** Which step of an exchange a snapshot is: sinks treat per-event snapshots as cheap. */
export type RecordStage = 'request' | 'head' | 'event' | 'end';

/** What is known when a request arrives (its body already read). */
export interface ExchangeStart {
  id: string;
  seq: number;
  session?: string;
  client?: string;
  startedAt: number;
  method: string;
  url: string;
  headers: HeaderPair[];
  body?: string;
  /** The request body was cut to its first bytes for the record (see MAX_RECORDED_BYTES). */
  bodyTruncated?: BodyTruncation;
}

/**
 * The most of one body the relay records (an event stream counts its events' data). A
 * hostile or runaway target must not make the relay hold, push and file hundreds of MB per
 * exchange: the rest passes through to the client untouched but is not kept, and the record
 * says how much was kept of how much.
 */
export const MAX_RECORDED_BYTES = 4 * 1024 * 1024;

// Node's rawHeaders ([name, value, name, value, …]) as ordered pairs, as sent.
export function pairsFromRaw(raw: readonly string[]): HeaderPair[] {
  const out: HeaderPair[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i], value: raw[i + 1] });
  return out;
}

// A fetch Headers as pairs. Fetch lower-cases and sorts them, so the wire order of the
// response head is not recoverable here; values and Set-Cookie lines are kept.
export function pairsFromHeaders(headers: Headers): HeaderPair[] {
  const out: HeaderPair[] = [];
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') out.push({ name, value });
  });
  for (const value of headers.getSetCookie()) out.push({ name: 'set-cookie', value });
  return out;
}

// Index just past the last blank line (an SSE event boundary) in `text`, or 0.
function lastBoundary(text: string): number {
  let end = 0;
  for (const m of text.matchAll(/(?:\r\n|\r|\n)(?:\r\n|\r|\n)/g)) end = m.index + m[0].length;
  return end;
}

/**
 * Builds one ExchangeRecord as the exchange progresses and hands a snapshot to `emit` at
 * each step. The record object is mutated in place: `emit` must serialise (or copy) it
 * before returning.
 *
 * Streaming: bytes are observed as they pass through, never collected before being
 * forwarded. An event stream is parsed incrementally (eventsource-parser), each event
 * stamped with the time its terminating blank line arrived.
 */
export class ExchangeRecorder {
  readonly record: ExchangeRecord;
  #emit: (record: ExchangeRecord, stage: RecordStage) => void;
  #decoder = new TextDecoder('utf-8');
  #parser: EventSourceParser | undefined;
  #events: SseEventRecord[] = [];
  #bodyParts: string[] = [];
  /** SSE text after the last event boundary: what is left if the stream is cut. */
  #pending = '';
  #retry: number | undefined;
  #done = false;
  /** Bytes of the response body seen, and kept (text chunks or events' data). */
  #seen = 0;
  #kept = 0;
  #full = false;
  readonly #limit: number;

  constructor(init: ExchangeStart, emit: (record: ExchangeRecord, stage: RecordStage) => void, limit = MAX_RECORDED_BYTES) {
    this.#emit = emit;
    this.#limit = limit;
    this.record = {
      v: PROTOCOL_VERSION,
      id: init.id,
      seq: init.seq,
      ...(init.session ? { session: init.session } : {}),
      source: 'relay',
      ...(init.client ? { client: init.client } : {}),
      startedAt: init.startedAt,
      request: { method: init.method, url: init.url, headers: init.headers, ...(init.body !== undefined ? { body: init.body } : {}), ...(init.bodyTruncated ? { truncated: init.bodyTruncated } : {}) },
      state: 'pending',
    };
    this.#emit(this.record, 'request');
  }

  /** The response head arrived. */
  head(response: Response): void {
    const contentType = response.headers.get('content-type') ?? '';
    const isSse = contentType.split(';')[0].trim().toLowerCase() === 'text/event-stream';
    this.record.response = {
      status: response.status,
      ...(response.statusText ? { statusText: response.statusText } : {}),
      headers: pairsFromHeaders(response.headers),
      receivedAt: Date.now(),
      ...(isSse ? { events: this.#events } : {}),
    };
    this.record.state = 'streaming';
    if (isSse) {
      this.#parser = createParser({
        onEvent: (e) => {
          const ev: SseEventRecord = { t: Date.now(), data: e.data };
          if (e.event !== undefined) ev.event = e.event;
          if (e.id !== undefined) ev.id = e.id;
          if (this.#retry !== undefined) ev.retry = this.#retry;
          this.#retry = undefined;
          this.#events.push(ev);
          this.#emit(this.record, 'event');
        },
        // A `retry:` alone dispatches no event; it is kept on the next event that does.
        onRetry: (ms) => {
          this.#retry = ms;
        },
      });
    }
    this.#emit(this.record, 'head');
  }

  /** A chunk of the response body passed through. */
  chunk(bytes: Uint8Array): void {
    this.#seen += bytes.length;
    if (this.#full) return;
    if (this.#kept + bytes.length > this.#limit) {
      // Keep the bytes up to the limit, then stop recording (the parser too: what is kept
      // is complete events only, and the cut tail is dropped, not kept as `tail`).
      bytes = bytes.subarray(0, this.#limit - this.#kept);
      this.#full = true;
    }
    this.#kept += bytes.length;
    const text = this.#decoder.decode(bytes, { stream: !this.#full });
    if (this.#parser) this.#feed(text);
    else this.#bodyParts.push(text);
    if (this.#full) this.#pending = '';
  }

  /** The body ended normally. */
  end(): void {
    this.#finish('complete');
  }

  /** The exchange was cut: by the client (`aborted`) or by the upstream or us (`failed`). */
  fail(state: 'aborted' | 'failed', error: string): void {
    this.#finish(state, error);
  }

  #feed(text: string): void {
    if (!text) return;
    this.#parser!.feed(text);
    const joined = this.#pending + text;
    this.#pending = joined.slice(lastBoundary(joined));
  }

  #finish(state: 'complete' | 'aborted' | 'failed', error?: string): void {
    if (this.#done) return;
    this.#done = true;
    const rest = this.#full ? '' : this.#decoder.decode();
    if (this.#full && this.record.response) this.record.response.truncated = { recordedBytes: this.#kept, totalBytes: this.#seen };
    if (this.#parser) {
      this.#feed(rest);
      if (this.#pending !== '' && this.record.response) this.record.response.tail = this.#pending;
    } else if (this.record.response) {
      this.#bodyParts.push(rest);
      this.record.response.body = this.#bodyParts.join('');
    }
    this.record.state = state;
    this.record.endedAt = Date.now();
    if (error !== undefined) this.record.error = error;
    this.#emit(this.record, 'end');
  }
}
