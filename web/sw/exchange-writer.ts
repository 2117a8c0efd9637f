// Writes one exchange to IndexedDB step by step, then announces each committed step.
//
// Hazard: the stream must never wait for storage. Every method here only queues work and
// returns at once; writes run one after another on a private chain, so they land in order
// even though the stream races ahead. Events that arrive while a write is in flight are
// coalesced into the next append, so a fast stream costs a few transactions, not one each.
import type { SseEventRecord } from '../../worker/protocol.js';
import type { CaptureStore, ExchangeEnd, NewExchange, ResponseHead, StorageErrorInfo } from '../../worker/storage/index.js';
import { StorageError } from '../../worker/storage/index.js';
import type { CaptureNotice } from './messages.js';

export type Announce = (notice: CaptureNotice) => void;

export class ExchangeWriter {
  readonly id: string;
  #seq: number | undefined;
  #chain: Promise<void> = Promise.resolve();
  #pending: SseEventRecord[] = [];
  #appendQueued = false;
  #broken = false;
  readonly #store: CaptureStore;
  readonly #announce: Announce;

  constructor(store: CaptureStore, announce: Announce, id: string) {
    this.#store = store;
    this.#announce = announce;
    this.id = id;
  }

  /** The request, as it goes out. `session` resolves lazily so the tap need not wait. */
  start(rec: Omit<NewExchange, 'session'>, session: () => Promise<string>): void {
    this.#queue(async () => {
      const stored = await this.#store.addExchange({ ...rec, session: await session() });
      this.#seq = stored.seq;
      this.#announce({ type: 'exchange-start', id: this.id, seq: stored.seq });
    });
  }

  head(head: ResponseHead, streaming: boolean): void {
    this.#queue(async () => {
      await this.#store.setResponseHead(this.id, head, streaming);
      this.#announce({ type: 'exchange-head', id: this.id, seq: this.#seq });
    });
  }

  event(ev: SseEventRecord): void {
    this.#pending.push(ev);
    if (this.#appendQueued) return;
    this.#appendQueued = true;
    this.#queue(async () => {
      this.#appendQueued = false;
      const batch = this.#pending.splice(0);
      await this.#store.appendEvents(this.id, batch);
      this.#announce({ type: 'exchange-events', id: this.id, seq: this.#seq });
    });
  }

  /** The last step. Resolves when everything queued is written (for `waitUntil`). */
  end(end: ExchangeEnd): Promise<void> {
    this.#queue(async () => {
      await this.#store.endExchange(this.id, end);
      this.#announce({ type: 'exchange-end', id: this.id, seq: this.#seq });
    });
    return this.#chain;
  }

  #queue(step: () => Promise<void>): void {
    this.#chain = this.#chain.then(async () => {
      if (this.#broken) return;
      try {
        await step();
      } catch (err) {
        // One report per exchange: after a failed write the rest would fail the same way.
        this.#broken = true;
        const error: StorageErrorInfo =
          err instanceof StorageError ? err.toInfo() : { kind: 'unknown', message: err instanceof Error ? err.message : String(err) };
        this.#announce({ type: 'storage-error', id: this.id, seq: this.#seq, error });
      }
    });
  }
}
