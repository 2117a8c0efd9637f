import type { BodyTruncation, ExchangeRecord, HeaderPair } from '../../worker/protocol.js';
import { ResponseRecording } from '../../worker/capture/recording.js';
import { PROTOCOL_VERSION } from '../../worker/protocol.js';
import type { RecordingBudget } from './recording-budget.js';

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
  /**
   * The request body as recorded: the bytes themselves (the buffer that was forwarded, or
   * its recorded start), decoded as UTF-8 whenever the record is written out.
   */
  body?: Uint8Array;
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

/**
 * Builds one ExchangeRecord as the exchange progresses and hands a snapshot to `emit` at
 * each step. The record object is mutated in place: `emit` must serialise (or copy) it
 * before returning.
 *
 * Streaming: bytes are observed as they pass through, never collected before being
 * forwarded; the body itself is recorded by the shared ResponseRecording.
 */
export class ExchangeRecorder {
  readonly record: ExchangeRecord;
  #emit: (record: ExchangeRecord, stage: RecordStage) => void;
  #recording: ResponseRecording | undefined;
  #done = false;
  /** Bytes of the response body seen, and kept. */
  #seen = 0;
  #kept = 0;
  #full = false;
  readonly #limit: number;
  readonly #budget: RecordingBudget | undefined;
  /** Bytes taken from the budget, given back when the exchange ends. */
  #taken = 0;

  /** `budget`: shared by all open exchanges; what does not fit in it is not recorded. */
  constructor(init: ExchangeStart, emit: (record: ExchangeRecord, stage: RecordStage) => void, limit = MAX_RECORDED_BYTES, budget?: RecordingBudget) {
    this.#emit = emit;
    this.#limit = limit;
    this.#budget = budget;
    const request: ExchangeRecord['request'] = { method: init.method, url: init.url, headers: init.headers };
    let bytes = init.body;
    if (bytes && !this.#take(bytes.length)) {
      init = { ...init, bodyTruncated: { recordedBytes: 0, totalBytes: init.bodyTruncated?.totalBytes ?? bytes.length } };
      bytes = undefined;
    }
    // The record holds the body's bytes, not a decoded copy of them: its text exists only
    // while a line or a push is being serialised (JSON.stringify reads the getter), so an
    // upload is held once, as the buffer that was forwarded.
    if (bytes) Object.defineProperty(request, 'body', { enumerable: true, get: () => new TextDecoder().decode(bytes) });
    if (init.bodyTruncated) request.truncated = init.bodyTruncated;
    this.record = {
      v: PROTOCOL_VERSION,
      id: init.id,
      seq: init.seq,
      ...(init.session ? { session: init.session } : {}),
      source: 'relay',
      ...(init.client ? { client: init.client } : {}),
      startedAt: init.startedAt,
      request,
      state: 'pending',
    };
    this.#emit(this.record, 'request');
  }

  /** The response head arrived. */
  head(response: Response): void {
    const rec = new ResponseRecording(response, { onEvent: () => this.#emit(this.record, 'event') });
    this.#recording = rec;
    // The record shares the recording's events array, so each emit sees the events so far.
    this.record.response = { ...rec.head, ...(rec.eventStream ? { events: rec.events } : {}) };
    this.record.state = 'streaming';
    this.#emit(this.record, 'head');
  }

  /** A chunk of the response body passed through. */
  chunk(bytes: Uint8Array): void {
    this.#seen += bytes.length;
    if (this.#full) return;
    if (this.#kept + bytes.length > this.#limit) {
      // Keep the bytes up to the limit, then stop recording; the cut tail is dropped.
      bytes = bytes.subarray(0, this.#limit - this.#kept);
      this.#full = true;
    }
    if (!this.#take(bytes.length)) {
      // The relay holds all it may for recording: this one keeps what it has.
      this.#full = true;
      return;
    }
    this.#kept += bytes.length;
    this.#recording?.chunk(bytes);
  }

  /** The body ended normally. */
  end(): void {
    this.#finish('complete');
  }

  /** The exchange was cut: by the client (`aborted`) or by the upstream or us (`failed`). */
  fail(state: 'aborted' | 'failed', error: string): void {
    this.#finish(state, error);
  }

  #take(n: number): boolean {
    if (!this.#budget || n === 0) return true;
    if (!this.#budget.take(n)) return false;
    this.#taken += n;
    return true;
  }

  #finish(state: 'complete' | 'aborted' | 'failed', error?: string): void {
    if (this.#done) return;
    this.#done = true;
    // The finished record leaves the relay with this last step (pushed, or queued for the file).
    this.#budget?.give(this.#taken);
    this.#taken = 0;
    const end = this.#recording?.end(state, error);
    const res = this.record.response;
    if (end && res) {
      if (end.body !== undefined) res.body = end.body;
      if (end.tail !== undefined && !this.#full) res.tail = end.tail;
    }
    if (this.#full && res) res.truncated = { recordedBytes: this.#kept, totalBytes: this.#seen };
    this.record.state = state;
    this.record.endedAt = end?.endedAt ?? Date.now();
    if (error !== undefined) this.record.error = error;
    this.#emit(this.record, 'end');
  }
}
