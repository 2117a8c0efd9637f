// A whole `text/event-stream` body (as HAR and files hold it) to event records and back.
// The SSE grammar itself is left to eventsource-parser; this file only decides where the
// complete part of the stream ends, so a stream cut mid-event keeps its unterminated text.
import { createParser } from 'eventsource-parser';
import type { SseEventRecord } from '../protocol.js';

/** Events of a complete-or-cut event stream, plus the unterminated text after the last event. */
export interface ParsedEventStream {
  events: SseEventRecord[];
  /** Text after the last blank line (an event cut mid-way), verbatim; absent when none. */
  tail?: string;
}

/**
 * Offset just past the last blank line (the line terminator that dispatches an event), or 0.
 * Terminators are CRLF, CR or LF, as in the SSE spec; a CR at the very end counts as a whole
 * terminator because the stream is over (a live parser would wait for a possible LF).
 */
function completeLength(text: string): number {
  let lineStart = 0;
  let cut = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    const end = c === 13 && text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
    if (i === lineStart) cut = end;
    lineStart = end;
    i = end - 1;
  }
  return cut;
}

/**
 * Parses a whole event-stream body; every event gets time `t` (HAR keeps no per-event
 * times). Comments are dropped; blocks with no `data:` line dispatch nothing (SSE spec).
 */
export function parseEventStreamText(text: string, t: number): ParsedEventStream {
  const events: SseEventRecord[] = [];
  // Hazard: `retry:` is a stream-level field in SSE and the parser reports it apart from
  // events; it is attached to the next event dispatched (a retry-only block has no event).
  let retry: number | undefined;
  const parser = createParser({
    onEvent(m) {
      const e: SseEventRecord = { t, data: m.data };
      if (m.event !== undefined) e.event = m.event;
      if (m.id !== undefined) e.id = m.id;
      if (retry !== undefined) e.retry = retry;
      retry = undefined;
      events.push(e);
    },
    onRetry(ms) {
      retry = ms;
    },
  });
  const cut = completeLength(text);
  if (cut > 0) {
    parser.feed(cut === text.length ? text : text.slice(0, cut));
    // A trailing CR is held back by the parser in case an LF follows; an LF completes it
    // as one CRLF terminator, so nothing extra is dispatched.
    if (text.charCodeAt(cut - 1) === 13) parser.feed('\n');
  }
  const out: ParsedEventStream = { events };
  if (cut < text.length) out.tail = text.slice(cut);
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
