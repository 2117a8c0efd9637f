// A relay backlog drained into the capture session, run by the relay feed (relay-feed.ts) on
// every `open` of its event stream. The relay hands its capture file out in bounded drains
// (POST /relay/api/backlog, then `?after=<drain>` for the next; server/relay/backlog.ts), and
// removes records from its file only when the page says it stored them (POST
// /relay/api/backlog/ack with the drain id the answer named).
//
// Drains are read ahead of storage: the next is asked for while those before wait to be
// written, as long as the bytes read and not yet written stay under MAX_UNWRITTEN_BYTES (they
// are held whole in the session until written). Each drain is acknowledged on its own, in
// order, once every transaction holding its records committed, never before (shown is not
// stored). A page closed in between, or a storage error (quota) on any of them, acknowledges
// nothing from that drain on, and its records come again on the next drain (the next
// `open`), where merging makes the second copy harmless.
import type { ExchangeRecord } from '../protocol.js';
import { readBacklog, type BacklogHead } from './backlog-read.js';
import { MAX_UNWRITTEN_BYTES, UnwrittenBudget } from './unwritten-budget.js';
import type { WriteBehind } from './write-behind.js';

/** The relay's backlog API (server/relay/page-api.ts). */
export const RELAY_BACKLOG = '/relay/api/backlog';
export const RELAY_BACKLOG_ACK = '/relay/api/backlog/ack';

/** Drains read and not yet acknowledged, at most: the relay remembers its last 32 only
 *  (server/relay/backlog.ts), and an ack for one it forgot is refused. */
const OPEN_DRAINS = 16;

export interface BacklogDrainsDeps {
  fetch: typeof fetch;
  /** The origin the relay paths are on. */
  base: string;
  /** Where drained records are numbered, laid in and written. */
  behind: Pick<WriteBehind, 'take' | 'hold'>;
  /** A drain is being read: its records are listed first, checked once it is read. */
  reading?: () => () => void;
  /** The memory bound (MAX_UNWRITTEN_BYTES by default). */
  readAheadBytes?: number;
  /** True once the feed stopped: no further drain is read. */
  stopped: () => boolean;
  /** A batch of a drain was read and laid in (shared with a tab waiting to drain after this run). */
  batchRead?: (records: readonly ExchangeRecord[]) => void;
  /** The run's writes are let go: its reading ended, or reached the memory bound. */
  writing?: () => void;
}

/** One drain read: its id, whether the relay holds more, its size, and its records' writes. */
interface Drained {
  drain: string | null;
  more: boolean;
  bytes: number;
  ids: string[];
  written: Promise<boolean>[];
}

/** Runs of drains over the relay's backlog, one run per call. */
export class BacklogDrains {
  readonly #deps: BacklogDrainsDeps;

  constructor(deps: BacklogDrainsDeps) {
    this.#deps = deps;
  }

  /**
   * Drains the backlog once: drain after drain while the bytes held unwritten stay under the
   * bound, each acknowledged once its own writes committed and the one before it was
   * acknowledged. The writes wait while the run reads (the list first), until it ends or the
   * bound is first reached; from then on storage runs and the reading waits for it whenever
   * the bound is full. A drain not acknowledged (storage refused it, the relay went away)
   * ends the run: nothing more is read, the drains read meanwhile are still stored, and the
   * next `open` drains from the start. Resolves once every drain read is settled.
   */
  async run(): Promise<void> {
    let after: string | null = null;
    let behind: Promise<boolean> | null = null;
    let failed = false;
    const budget = new UnwrittenBudget(this.#deps.readAheadBytes ?? MAX_UNWRITTEN_BYTES);
    const unacked: Promise<boolean>[] = [];
    let release: (() => void) | null = this.#deps.behind.hold();
    try {
      while (!this.#deps.stopped() && !failed) {
        const got = await this.#read(after);
        if (!got) return;
        const acked = this.#acknowledge(got, behind);
        behind = acked;
        void acked.then((ok) => { failed ||= !ok; });
        if (!got.more || !got.drain) return;
        after = got.drain;
        // Marked failed before the budget wakes the reading (callbacks run in the order added).
        const writes = Promise.all(got.written);
        void writes.then((oks) => { failed ||= !oks.every(Boolean); });
        budget.hold(got.bytes, writes);
        unacked.push(acked);
        // Full (memory, or drains the relay may forget): storage goes on from here, and the
        // reading waits for it.
        if (release && (!budget.open || unacked.length >= OPEN_DRAINS)) {
          release();
          release = null;
          this.#deps.writing?.();
        }
        await budget.room();
        while (unacked.length >= OPEN_DRAINS) await unacked.shift();
      }
    } finally {
      if (release) {
        release();
        this.#deps.writing?.();
      }
      await behind;
    }
  }

  // Reads one drain, each batch laid into the session as soon as it is numbered and written
  // once the run lets it (capture/write-behind.ts). Null when the relay went away mid-drain.
  async #read(after: string | null): Promise<Drained | null> {
    const ids: string[] = [];
    const written: Promise<boolean>[] = [];
    const read = this.#deps.reading?.();
    const store = async (records: readonly ExchangeRecord[]): Promise<void> => {
      if (!records.length) return;
      for (const r of records) ids.push(r.id);
      const taken = this.#deps.behind.take(records, { backlog: true });
      written.push(taken.written);
      await taken.laid;
      this.#deps.batchRead?.(records);
    };
    const path = after === null ? RELAY_BACKLOG : `${RELAY_BACKLOG}?after=${encodeURIComponent(after)}`;
    let head: BacklogHead | null;
    try {
      head = await readBacklog(this.#deps.fetch, new URL(path, this.#deps.base).href, store);
    } catch {
      return null; // the relay went away mid-drain; its next `open` drains again
    } finally {
      read?.();
    }
    return head && { drain: head.drain, more: head.more, bytes: head.bytes, ids, written };
  }

  // Resolves true once every batch of the drain committed and the relay took the
  // acknowledgement (see the file's head), never before the drain before it was
  // acknowledged: a copy of an id the drain before also held, and no newer, is not written
  // again (the earlier copy is), yet the relay drops every line of an acknowledged id up to
  // the copy handed out, so acknowledging it while that earlier write could still fail
  // would lose the record from both places.
  async #acknowledge(got: Drained, before: Promise<boolean> | null): Promise<boolean> {
    const all = (await Promise.all(got.written)).every(Boolean);
    if (before && !(await before)) return false;
    if (got.ids.length === 0 || !all || !got.drain) return false;
    try {
      const ack = await this.#deps.fetch(new URL(RELAY_BACKLOG_ACK, this.#deps.base).href, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ drain: got.drain, ids: [...new Set(got.ids)] }),
      });
      return ack.ok;
    } catch {
      // Not acknowledged: the relay keeps the records and hands them out again.
      return false;
    }
  }
}
