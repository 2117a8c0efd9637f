// The copies of what passes through wrap, read after the pass-through is done with them.
// A data handler forwards its chunk and only queues the copy; the queue is read on the next
// check phase (setImmediate), after every I/O callback ready in this turn of the event
// loop, so the answer to a request is forwarded before the request is recorded when both
// are ready, and a client's next request is never held up by the last answer's recording.
// Records keep the time each chunk arrived, not the time it was read.
//
// Hazard: both directions share one queue, read in arrival order: the pairing must see a
// request before its answer. Chunks wait at most one turn of the loop, and the pass-through's
// own back-pressure bounds how many arrive in one.
import type { LineSplitter } from './line-splitter.js';

type Entry = { to: LineSplitter; chunk: Buffer; at: number } | { to: LineSplitter; end: true; at: number };

export class DeferredCopies {
  #queue: Entry[] = [];
  #scheduled = false;
  /** When the chunk being read arrived (epoch ms): the time of the lines it ends. */
  at = Date.now();

  /** Queues a copy of a chunk that was just forwarded. */
  add(to: LineSplitter, chunk: Buffer): void {
    this.#queue.push({ to, chunk, at: Date.now() });
    this.#schedule();
  }

  /** Queues the end of one direction (its last unterminated line is still a line). */
  end(to: LineSplitter): void {
    this.#queue.push({ to, end: true, at: Date.now() });
    this.#schedule();
  }

  /** Reads everything queued, now. */
  drain(): void {
    this.#scheduled = false;
    const queue = this.#queue;
    this.#queue = [];
    for (const e of queue) {
      this.at = e.at;
      if ('end' in e) e.to.end();
      else e.to.push(e.chunk);
    }
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      if (this.#scheduled) this.drain();
    });
  }
}
