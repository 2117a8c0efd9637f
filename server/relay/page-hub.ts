import type { ServerResponse } from 'node:http';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { deltaPush, eventCount, recordPush, type PushStage } from '../../worker/capture/relay-push.js';

const HEARTBEAT_MS = 15_000;

/**
 * The open inspector pages, each holding `/relay/api/events` (text/event-stream). Every
 * event's data is one RelayPush JSON (worker/capture/relay-push.ts): the first time a page
 * hears of an id it gets the record so far, whole; after that, only what is new for that
 * page (events since its last push, the head, the final fields). A page should open this
 * stream before it drains `/relay/api/backlog`, so no record falls between the two.
 */
export class PageHub {
  /** Each page, with how many events of each open exchange it was sent (an id absent: nothing yet). */
  #pages = new Map<ServerResponse, Map<string, number>>();
  #timer: NodeJS.Timeout | undefined;
  readonly #maxBuffer: number;

  /** `maxBuffer`: a page whose unsent data passes this many bytes is dropped. */
  constructor(maxBuffer = 16 * 1024 * 1024) {
    this.#maxBuffer = maxBuffer;
  }

  /** How many pages are listening right now. */
  get size(): number {
    return this.#pages.size;
  }

  /** Turns a response into an event stream and keeps it until the page goes away. */
  add(res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // Headers and a first comment go out at once, so the page's EventSource fires `open`
    // and the page knows it is counted before it asks for the backlog.
    res.write('retry: 2000\n: connected\n\n');
    this.#pages.set(res, new Map());
    res.on('close', () => this.#drop(res));
    this.#timer ??= setInterval(() => this.#broadcast(() => ': ping\n\n'), HEARTBEAT_MS).unref();
  }

  /**
   * Sends each page what is new in `record` at this stage; returns how many took it. A page
   * whose socket is gone is dropped and not counted, so the caller falls back to the capture
   * file. `whole`: the record was made elsewhere (a stdio wrap) and is always sent whole.
   */
  push(record: ExchangeRecord, stage: PushStage, whole = false): number {
    if (this.#pages.size === 0) return 0;
    const events = eventCount(record);
    // Pages that hold the same count get the same frame: serialised once per push, not per page.
    const frames = new Map<number, string>();
    // JSON never contains a raw newline, so one `data:` line carries one message.
    const frame = (sent: number | undefined) => {
      const key = whole || sent === undefined ? -1 : sent;
      let f = frames.get(key);
      if (f === undefined) frames.set(key, (f = `data: ${JSON.stringify(key < 0 ? recordPush(record) : deltaPush(record, stage, key))}\n\n`));
      return f;
    };
    return this.#broadcast((sent) => {
      const f = frame(sent.get(record.id));
      if (stage === 'end') sent.delete(record.id);
      else sent.set(record.id, events);
      return f;
    });
  }

  /** Ends every page stream (server shutdown). */
  close(): void {
    for (const res of this.#pages.keys()) res.end();
    this.#pages.clear();
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  // `frameFor` is asked once per live page, with what that page was sent so far.
  #broadcast(frameFor: (sent: Map<string, number>) => string): number {
    let delivered = 0;
    for (const [res, sent] of this.#pages) {
      if (res.destroyed || res.writableEnded) {
        this.#drop(res);
        continue;
      }
      // No backpressure wait here: one slow page must not stall the client's traffic. A
      // page that stops reading would grow our buffer without end, so past the bound it is
      // cut (its EventSource reconnects and drains the backlog, where the records went).
      const frame = frameFor(sent);
      if (res.writableLength + frame.length > this.#maxBuffer) {
        res.destroy();
        this.#drop(res);
        continue;
      }
      res.write(frame);
      delivered++;
    }
    return delivered;
  }

  #drop(res: ServerResponse): void {
    this.#pages.delete(res);
    if (this.#pages.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
