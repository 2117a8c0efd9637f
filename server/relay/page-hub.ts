import type { ServerResponse } from 'node:http';
import type { ExchangeRecord } from '../../worker/protocol.js';

const HEARTBEAT_MS = 15_000;

/**
 * The open inspector pages, each holding `/relay/api/events` (text/event-stream). Every
 * event's data is one ExchangeRecord JSON; the same id arrives again as the exchange
 * progresses (request, response head, each event, end) and the later one replaces the
 * earlier. A page should open this stream before it drains `/relay/api/backlog`, so no
 * record falls between the two.
 */
export class PageHub {
  #pages = new Set<ServerResponse>();
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
    this.#pages.add(res);
    res.on('close', () => this.#drop(res));
    this.#timer ??= setInterval(() => this.#broadcast(': ping\n\n'), HEARTBEAT_MS).unref();
  }

  /**
   * Sends a record to every page; returns how many took it. A page whose socket is gone is
   * dropped and not counted, so the caller falls back to the capture file.
   */
  push(record: ExchangeRecord): number {
    if (this.#pages.size === 0) return 0;
    // JSON never contains a raw newline, so one `data:` line carries the whole record.
    return this.#broadcast(`data: ${JSON.stringify(record)}\n\n`);
  }

  /** Ends every page stream (server shutdown). */
  close(): void {
    for (const res of this.#pages) res.end();
    this.#pages.clear();
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #broadcast(frame: string): number {
    let delivered = 0;
    for (const res of this.#pages) {
      if (res.destroyed || res.writableEnded) {
        this.#drop(res);
        continue;
      }
      // No backpressure wait here: one slow page must not stall the client's traffic. A
      // page that stops reading would grow our buffer without end, so past the bound it is
      // cut (its EventSource reconnects and drains the backlog, where the records went).
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
