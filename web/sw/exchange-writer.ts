// Writes one exchange to IndexedDB step by step, then announces each committed write.
//
// Hazard: the stream must never wait for storage. Every method here only records what
// happened and returns; one private loop writes, one transaction at a time, so writes
// land in order even though the stream races ahead. Whatever piles up while a write is
// in flight (the head, events, the end) is folded into the next single transaction.
//
// The first write waits briefly (START_DELAY_MS) for more to fold in, so a quick JSON
// answer costs one transaction (request, head, body, end) instead of three, written after
// the page has its response: storage work stays off the request's critical path. A slow
// server still gets its `pending` record within that delay, and an event stream's first
// event is written as soon as it arrives.
import type { SseEventRecord } from '../../worker/protocol.js';
import type { CaptureStore, ExchangeEnd, NewExchange, ResponseHead, StorageErrorInfo, StoredExchange } from '../../worker/storage/index.js';
import { StorageError } from '../../worker/storage/index.js';
import type { CaptureNotice } from './messages.js';

export type Announce = (notice: CaptureNotice) => void;

const START_DELAY_MS = 50;

interface Pending {
  head?: { head: ResponseHead; streaming: boolean };
  events: SseEventRecord[];
  end?: ExchangeEnd;
}

type Step = 'exchange-start' | 'exchange-head' | 'exchange-events' | 'exchange-end';

// Folds pending steps into a record (new or stored); returns the most advanced step.
function apply(rec: NewExchange | StoredExchange, p: Pending): Step | null {
  let step: Step | null = null;
  if (p.head) {
    rec.response = { ...p.head.head, ...(p.head.streaming ? { events: [] } : {}) };
    rec.state = 'streaming';
    step = 'exchange-head';
  }
  if (p.events.length) {
    if (rec.response) (rec.response.events ??= []).push(...p.events);
    step = 'exchange-events';
  }
  if (p.end) {
    const e = p.end;
    rec.state = e.state;
    rec.endedAt = e.endedAt;
    if (e.error !== undefined) rec.error = e.error;
    if (rec.response && e.body !== undefined) rec.response.body = e.body;
    if (rec.response && e.tail) rec.response.tail = e.tail;
    step = 'exchange-end';
  }
  return step;
}

export class ExchangeWriter {
  readonly id: string;
  #seq: number | undefined;
  #make: (() => Promise<NewExchange>) | null = null;
  #created = false;
  #pending: Pending = { events: [] };
  #loop: Promise<void> | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #broken = false;
  #idle: (() => void)[] = [];
  readonly #store: CaptureStore;
  readonly #announce: Announce;

  constructor(store: CaptureStore, announce: Announce, id: string) {
    this.#store = store;
    this.#announce = announce;
    this.id = id;
  }

  /** The request, as it goes out; `make` runs on the write loop, so it may await the body. */
  start(make: () => Promise<NewExchange>): void {
    this.#make = make;
    this.#timer = setTimeout(() => this.#kick(), START_DELAY_MS);
  }

  /** The head alone does not start a write: the start delay, an event or the end will. */
  head(head: ResponseHead, streaming: boolean): void {
    this.#pending.head = { head, streaming };
    if (this.#created) this.#kickSoon();
  }

  event(ev: SseEventRecord): void {
    this.#pending.events.push(ev);
    this.#kickSoon();
  }

  /** The last step. Resolves when everything is written (hand it to `waitUntil`). */
  end(end: ExchangeEnd): Promise<void> {
    this.#pending.end = end;
    this.#kickSoon();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  // Called from inside the stream's transform/flush: start writing in a later task, so
  // the chunk (or the close) reaches the page before any storage work runs.
  #kickSoon(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#kick(), 0);
  }

  #kick(): void {
    clearTimeout(this.#timer);
    this.#loop ??= this.#run().finally(() => {
      this.#loop = null;
      // Something arrived after the last take but before we cleared: write it too.
      if (this.#hasWork()) this.#kick();
      else for (const f of this.#idle.splice(0)) f();
    });
  }

  #hasWork(): boolean {
    const p = this.#pending;
    return !this.#broken && (!this.#created || p.head !== undefined || p.events.length > 0 || p.end !== undefined);
  }

  async #run(): Promise<void> {
    while (this.#hasWork()) {
      const p = this.#pending;
      this.#pending = { events: [] };
      try {
        if (!this.#created) {
          if (!this.#make) {
            this.#broken = true; // end() without start(): a bug in the caller; write nothing
            return;
          }
          const rec = await this.#make();
          const step = apply(rec, p);
          const stored = await this.#store.addExchange(rec);
          this.#created = true;
          this.#seq = stored.seq;
          this.#announce({ type: step ?? 'exchange-start', id: this.id, seq: stored.seq });
        } else {
          let step: Step | null = null;
          await this.#store.updateExchange(this.id, (rec) => {
            step = apply(rec, p);
          });
          if (step) this.#announce({ type: step, id: this.id, seq: this.#seq });
        }
      } catch (err) {
        // One report per exchange: after a failed write the rest would fail the same way.
        this.#broken = true;
        const error: StorageErrorInfo =
          err instanceof StorageError ? err.toInfo() : { kind: 'unknown', message: err instanceof Error ? err.message : String(err) };
        this.#announce({ type: 'storage-error', id: this.id, seq: this.#seq, error });
      }
    }
  }
}
