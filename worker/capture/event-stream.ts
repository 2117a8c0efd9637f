// The one reader of `text/event-stream` text, fed piece by piece (live) or whole (files),
// and the writer back to text. The SSE grammar is eventsource-parser's; this file adds what
// a recording needs on top: each event's arrival time, `retry:` kept on the next event, and
// the unterminated tail of a stream that was cut mid-event.
//
// Hazard (eventsource-parser 3.1.1): a feed that ends with CR is held back in case an LF
// follows, and when the next feed brings no line break at all the held line is lost or
// dispatched late (an event that ended with "\r\r" at the end of a chunk never arrives when
// the stream ends after it). So no feed ever ends with CR here: a trailing CR is fed as CRLF
// (the same single terminator) and an LF that starts the next piece is dropped as its half.
import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { SseEventRecord } from '../protocol.js';

const CR = 13;
const LF = 10;

/** Events of a complete-or-cut event stream, plus the unterminated text after the last event. */
export interface ParsedEventStream {
  events: SseEventRecord[];
  /** Text after the last blank line (an event cut mid-way), verbatim; absent when none. */
  tail?: string;
}

/**
 * Reads an event stream as its text arrives. Each event is stamped with the time given to
 * the `feed` that completed it. Comments are dropped; a block with no `data:` line dispatches
 * nothing (SSE spec).
 */
export class EventStreamReader {
  readonly #parser: EventSourceParser;
  readonly #onEvent: (ev: SseEventRecord) => void;
  #t = 0;
  #retry: number | undefined;
  /** The previous feed ended with CR, already fed as CRLF: a leading LF now is its other half. */
  #swallowLf = false;
  // Boundary tracking, over the raw text: the text since the last blank line, whether the
  // current line is still empty, and whether the last char was a CR ending a blank line
  // (so an LF right after it extends that boundary).
  #tail = '';
  #lineEmpty = true;
  #afterCr = false;
  #boundaryCr = false;

  constructor(onEvent: (ev: SseEventRecord) => void) {
    this.#onEvent = onEvent;
    this.#parser = createParser({
      onEvent: (m) => {
        const ev: SseEventRecord = { t: this.#t, data: m.data };
        if (m.event !== undefined) ev.event = m.event;
        if (m.id !== undefined) ev.id = m.id;
        if (this.#retry !== undefined) ev.retry = this.#retry;
        this.#retry = undefined;
        this.#onEvent(ev);
      },
      // `retry:` is a stream-level field the parser reports apart from events; it is kept
      // on the next event dispatched (a retry-only block dispatches no event).
      onRetry: (ms) => {
        this.#retry = ms;
      },
    });
  }

  /** Feeds decoded text that arrived at `t` (epoch ms). */
  feed(text: string, t: number): void {
    if (text === '') return;
    this.#t = t;
    this.#track(text);
    let piece = text;
    if (this.#swallowLf && piece.charCodeAt(0) === LF) piece = piece.slice(1);
    this.#swallowLf = false;
    if (piece.charCodeAt(piece.length - 1) === CR) {
      piece += '\n';
      this.#swallowLf = true;
    }
    if (piece !== '') this.#parser.feed(piece);
  }

  /** Text after the last complete event, verbatim ('' when the stream ended on a boundary). */
  get tail(): string {
    return this.#tail;
  }

  // Linear in the text fed, whatever the chunking; it jumps from line break to line break
  // (a long `data:` line costs one regex step, not one step per character).
  #track(text: string): void {
    let cut = -1;
    const BREAK = /[\r\n]/g;
    let from = 0;
    for (let m = BREAK.exec(text); ; m = BREAK.exec(text)) {
      const i = m ? m.index : text.length;
      if (i > from) {
        // Ordinary characters: the line has content, and a CR before them had no LF.
        this.#lineEmpty = false;
        this.#afterCr = false;
        this.#boundaryCr = false;
      }
      if (!m) break;
      const c = text.charCodeAt(i);
      from = i + 1;
      if (this.#afterCr && c === LF) {
        // The LF of a CRLF: part of the terminator already counted.
        this.#afterCr = false;
        if (this.#boundaryCr) cut = i + 1;
        this.#boundaryCr = false;
        continue;
      }
      this.#boundaryCr = false;
      if (this.#lineEmpty) {
        cut = i + 1;
        this.#boundaryCr = c === CR;
      }
      this.#lineEmpty = true;
      this.#afterCr = c === CR;
    }
    this.#tail = cut < 0 ? this.#tail + text : text.slice(cut);
  }
}

/**
 * Parses a whole event-stream body; every event gets time `t` (HAR keeps no per-event times).
 * A CR at the very end counts as a terminator: the stream is over.
 */
export function parseEventStreamText(text: string, t: number): ParsedEventStream {
  const events: SseEventRecord[] = [];
  const reader = new EventStreamReader((e) => events.push(e));
  reader.feed(text, t);
  const out: ParsedEventStream = { events };
  if (reader.tail !== '') out.tail = reader.tail;
  return out;
}

// Line breaks inside a field value cannot be written in SSE; each piece becomes its own
// `data:` line (which the parser joins back with LF), so CR and CRLF normalise to LF.
const LINE_BREAK = /\r\n|\r|\n/;

/** Writes events (and an unterminated tail, verbatim) as event-stream text that parses back to them. */
export function serializeEventStream(events: readonly SseEventRecord[], tail?: string): string {
  const parts: string[] = [];
  for (const e of events) {
    // Hazard: an empty `event:` value parses as no event name, so it is not written.
    if (e.event) parts.push('event: ', e.event.split(LINE_BREAK).join(' '), '\n');
    if (e.id !== undefined && !LINE_BREAK.test(e.id) && !e.id.includes('\0')) parts.push('id: ', e.id, '\n');
    if (e.retry !== undefined && Number.isInteger(e.retry) && e.retry >= 0) parts.push('retry: ', String(e.retry), '\n');
    for (const line of e.data.split(LINE_BREAK)) parts.push('data: ', line, '\n');
    parts.push('\n');
  }
  if (tail) parts.push(tail);
  return parts.join('');
}
