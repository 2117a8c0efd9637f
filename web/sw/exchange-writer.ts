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
//
// A failed write must not lose the exchange (storage full). The writer keeps a
// mirror of the whole record, every step folded into it as well as into storage. After
// the first failed write it stops writing and posts the mirror to the page instead
// (`exchange-unsaved`), again after each later step; the page keeps it in memory and
// writes it on "Retry saving". Hazard: re-posting the whole record for every event would
// be quadratic on a long stream, so a held exchange posts at most every HELD_POST_MS (the
// end at once); a service worker killed inside that window loses the events of the window
// (the page has everything posted before it). Only a failure to build the record at all
// (the session id could not be read) is still reported as `storage-error`, with nothing to hold.
import type { SseEventRecord } from '../../worker/protocol.js';
import type { CaptureStore, ExchangeEnd, NewExchange, ResponseHead, StorageErrorInfo, StoredExchange } from '../../worker/storage/index.js';
import { isFinal, storageErrorInfo } from '../../worker/storage/index.js';
import type { CaptureNotice } from './messages.js';

export type Announce = (notice: CaptureNotice) => void;

const START_DELAY_MS = 50;
const HELD_POST_MS = 250;

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
  /** The whole record as it stands, so a failed write loses nothing (see the header). */
  #mirror: NewExchange | null = null;
  /** Set by the first failed write: from then on the mirror goes to the page, not storage. */
  #held: StorageErrorInfo | null = null;
  #pending: Pending = { events: [] };
  #loop: Promise<void> | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #broken = false;
  #idle: (() => void)[] = [];
  readonly #store: CaptureStore;
  readonly #announce: Announce;

  /** A linked Console send: fills in the Console's pending record, and never changes a final one. */
  readonly #fill: boolean;

  constructor(store: CaptureStore, announce: Announce, id: string, opts: { fill?: boolean } = {}) {
    this.#store = store;
    this.#announce = announce;
    this.id = id;
    this.#fill = opts.fill === true;
  }

  /** The request, as it goes out; `make` runs on the write loop, so it may await the body. */
  start(make: () => Promise<NewExchange>): void {
    this.#make = make;
    this.#timer = setTimeout(() => this.#kick(), START_DELAY_MS);
  }

  /** The head alone does not start a write: the start delay, an event or the end will. */
  head(head: ResponseHead, streaming: boolean): void {
    this.#pending.head = { head, streaming };
    if (this.#created || this.#held) this.#kickSoon();
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
  // A held exchange posts at most every HELD_POST_MS: a running timer is left alone (a
  // steady stream must not push it back forever), except for the end, posted at once.
  #kickSoon(): void {
    if (this.#held && !this.#pending.end) {
      this.#timer ??= setTimeout(() => this.#kick(), HELD_POST_MS);
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#kick(), 0);
  }

  #kick(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#loop ??= this.#run().finally(() => {
      this.#loop = null;
      // Something arrived after the last take but before we cleared: write it too.
      if (this.#hasWork()) this.#kick();
      else for (const f of this.#idle.splice(0)) f();
    });
  }

  #hasWork(): boolean {
    const p = this.#pending;
    const more = p.head !== undefined || p.events.length > 0 || p.end !== undefined;
    return !this.#broken && (more || (!this.#created && !this.#held));
  }

  async #run(): Promise<void> {
    while (this.#hasWork()) {
      const p = this.#pending;
      this.#pending = { events: [] };
      if (this.#held && this.#mirror) {
        apply(this.#mirror, p);
        this.#postHeld();
        continue;
      }
      try {
        if (!this.#created) {
          if (!this.#make) {
            this.#broken = true; // end() without start(): a bug in the caller; write nothing
            return;
          }
          const rec = await this.#make();
          // IndexedDB clones the record when it is added: the mirror may change after that.
          this.#mirror = rec;
          const step = apply(rec, p);
          const stored = this.#fill ? await this.#store.fillExchange(rec) : await this.#store.addExchange(rec);
          if (!stored) {
            // The Console's own final copy is already stored: it stands, and we write no more.
            this.#broken = true;
            return;
          }
          this.#created = true;
          this.#seq = stored.seq;
          this.#announce({ type: step ?? 'exchange-start', id: this.id, seq: stored.seq });
        } else {
          // The mirror first: if the write below fails, it already holds this step.
          const step = this.#mirror ? apply(this.#mirror, p) : null;
          let stands = false;
          await this.#store.updateExchange(this.id, (rec) => {
            // A Console send whose own final copy replaced ours meanwhile: that copy stands
            // (folding our events into it would repeat them).
            if (this.#fill && isFinal(rec)) stands = true;
            else apply(rec, p);
          });
          if (stands) {
            this.#broken = true;
            return;
          }
          if (step) this.#announce({ type: step, id: this.id, seq: this.#seq });
        }
      } catch (err) {
        const error: StorageErrorInfo = storageErrorInfo(err);
        if (!this.#mirror) {
          // Nothing to hold (the record could not even be built). One report per exchange.
          this.#broken = true;
          this.#announce({ type: 'storage-error', id: this.id, seq: this.#seq, error });
          return;
        }
        // No more writes for this exchange (they would fail the same way): the page holds it.
        this.#held = error;
        this.#postHeld();
      }
    }
  }

  // Posted as a whole: BroadcastChannel clones it now, so later steps do not touch the copy sent.
  #postHeld(): void {
    const mirror = this.#mirror;
    if (!mirror || !this.#held) return;
    const seq = this.#seq;
    this.#announce({
      type: 'exchange-unsaved', id: this.id, ...(seq !== undefined ? { seq } : {}),
      record: { ...mirror, ...(seq !== undefined ? { seq } : {}) }, error: this.#held,
    });
  }
}
