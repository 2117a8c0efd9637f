// Turns the text of an event stream, chunk by chunk, into SseEventRecords stamped with
// the arrival time of the chunk that completed them. Parsing is eventsource-parser's.
import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { SseEventRecord } from '../../worker/protocol.js';

// A blank line ends an event; whatever follows the last one is the unterminated tail.
const EVENT_END = /(\r\n|\r|\n)(\r\n|\r|\n)/g;

export class SseRecorder {
  readonly #parser: EventSourceParser;
  #now = 0;
  #retry: number | undefined;
  #tail = '';

  constructor(onEvent: (ev: SseEventRecord) => void) {
    this.#parser = createParser({
      onEvent: (m) => {
        const ev: SseEventRecord = { t: this.#now, data: m.data };
        if (m.event !== undefined) ev.event = m.event;
        if (m.id !== undefined) ev.id = m.id;
        if (this.#retry !== undefined) ev.retry = this.#retry;
        this.#retry = undefined;
        onEvent(ev);
      },
      onRetry: (ms) => {
        this.#retry = ms;
      },
    });
  }

  /** Feeds decoded text that arrived at `t` (epoch ms). */
  feed(text: string, t: number): void {
    this.#now = t;
    this.#parser.feed(text);
    this.#trackTail(text);
  }

  /** Text after the last complete event, when the stream stopped mid-event. */
  get tail(): string {
    return this.#tail.trim() === '' ? '' : this.#tail;
  }

  #trackTail(text: string): void {
    // The old tail holds no blank line, so only its last 3 chars can start one (a
    // "\r\n\r\n" split across chunks); scanning from there keeps a long event linear.
    const s = this.#tail + text;
    let last = -1;
    EVENT_END.lastIndex = Math.max(0, this.#tail.length - 3);
    for (let m = EVENT_END.exec(s); m; m = EVENT_END.exec(s)) last = m.index + m[0].length;
    this.#tail = last >= 0 ? s.slice(last) : s;
  }
}
