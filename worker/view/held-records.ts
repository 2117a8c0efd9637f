// Copies of exchanges storage refused (quota), held in the page's memory and handed to the
// worker so they are listed, analysed and exported like stored ones. They are an overlay: a
// held copy replaces its stored copy by id (it is always the more complete one), keeping the
// stored `seq`. A record never stored has no `seq`, so it gets a provisional one after every
// other each time the overlay is laid.
//
// Hazard: `seq` keys the analysis (a dense array, and `c<seq>` conversation ids), so
// provisional numbers must never collide with stored ones; storage does not advance a
// session's numbering for a failed add, so a later stored exchange can take the number a
// held one had: provisional seqs (and so the ids of their conversations) may change between
// layings, stored ones never do.
import type { ExchangeRecord } from '../protocol.js';
import { PROTOCOL_VERSION } from '../protocol.js';
import type { NewExchange, StoredExchange } from '../storage/index.js';

/**
 * An exchange storage refused, as complete as it got. `seq` is there only when an earlier
 * step of it was stored (its stored position); plain data, it crosses every boundary.
 */
export type UnsavedExchange = NewExchange & { seq?: number };

/** The held copies of one session, by id, and how they lie over its stored records. */
export class HeldRecords {
  readonly #held = new Map<string, UnsavedExchange>();

  /** How many copies are held. */
  get size(): number {
    return this.#held.size;
  }

  /** Holds (or replaces) copies. */
  hold(records: Iterable<UnsavedExchange>): void {
    for (const r of records) this.#held.set(r.id, r);
  }

  /** Drops held copies; true when any of them was held. */
  release(ids: Iterable<string>): boolean {
    let changed = false;
    for (const id of ids) changed = this.#held.delete(id) || changed;
    return changed;
  }

  /** The held copy of an exchange, whole, if there is one. */
  get(id: string): UnsavedExchange | undefined {
    return this.#held.get(id);
  }

  /** One exchange as analysed: the held copy (at its stored seq, when it has one) over the stored record. */
  record(id: string, stored: ReadonlyMap<string, StoredExchange>): ExchangeRecord | undefined {
    const h = this.#held.get(id);
    return h ? { ...h, v: PROTOCOL_VERSION, seq: stored.get(id)?.seq ?? h.seq ?? -1 } : stored.get(id);
  }

  /** The stored records with the held copies laid over them, in no particular order; copies
   *  never stored are numbered after every other seq, in the order they started. */
  merged(stored: ReadonlyMap<string, StoredExchange>): StoredExchange[] {
    if (this.#held.size === 0) return [...stored.values()];
    const out = new Map(stored);
    let top = -1;
    for (const r of stored.values()) top = Math.max(top, r.seq);
    for (const h of this.#held.values()) if (h.seq !== undefined) top = Math.max(top, h.seq);
    const held = [...this.#held.values()].sort((a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const h of held) {
      const seq = stored.get(h.id)?.seq ?? h.seq ?? ++top;
      out.set(h.id, { ...h, v: PROTOCOL_VERSION, seq });
    }
    return [...out.values()];
  }
}
