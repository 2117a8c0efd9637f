// Numbers for relay records, handed out from memory: blocks of a session's numbers are
// reserved ahead in storage (storage/reserve.ts: a transaction over `sessions` alone), so a
// live record is numbered without waiting for any write of exchanges, a backlog chunk's
// included. Unused numbers of a block are never used again (gaps, never repeats: another
// tab, the tap, or this page after a reload all number from past the block).
//
// Hazard: a clear restarts a session's numbering at 0, so a block reserved before it holds
// numbers the session gives again (the tap's next record takes 0, then 1…). A clear made
// through this worker's page calls `forget` (services/sessions.ts forget → the relay feed),
// which drops the session's blocks and any reservation in flight, so the next number comes
// from a reservation after the clear. A clear made by another tab is seen only at this
// worker's next reservation (the numbering went back: older blocks dropped); until then at
// most a block of numbers from before it may be handed out.
import type { SeqBlock } from '../storage/index.js';

export interface SeqStore {
  reserveSeqs(session: string, count: number, after?: number): Promise<SeqBlock>;
}

/** Numbers reserved at a time, beyond what a take asks: a live take rarely reserves itself. */
export const SEQ_BLOCK = 64;

/** A new block is asked for ahead once fewer than this are left. */
const LOW = SEQ_BLOCK / 2;

interface Range { next: number; end: number }

export class SeqBlocks {
  readonly #store: SeqStore;
  /** Unused numbers per session, in rising order. */
  readonly #ranges = new Map<string, Range[]>();
  /** The end of the last block reserved per session (to see a restart). */
  readonly #last = new Map<string, number>();
  /** A reservation in flight per session. */
  readonly #asking = new Map<string, Promise<void>>();
  /** Bumped by `forget`: a reservation asked for before it is not kept. */
  readonly #epoch = new Map<string, number>();

  constructor(store: SeqStore) {
    this.#store = store;
  }

  /** Numbers left in hand for `session`. */
  left(session: string): number {
    let n = 0;
    for (const r of this.#ranges.get(session) ?? []) n += r.end - r.next;
    return n;
  }

  /**
   * `count` unused numbers of `session`, rising. Resolves at once while the blocks in hand
   * hold them; else waits for a reservation (one transaction over `sessions`). Throws a
   * StorageError when storage refuses it.
   */
  async take(session: string, count: number): Promise<number[]> {
    while (this.left(session) < count) {
      const asking = this.#asking.get(session);
      if (asking) await asking;
      else await this.#ask(session, count - this.left(session) + SEQ_BLOCK);
    }
    const out: number[] = [];
    const ranges = this.#ranges.get(session) ?? [];
    while (out.length < count) {
      const r = ranges[0]!;
      out.push(r.next++);
      if (r.next === r.end) ranges.shift();
    }
    // Ahead: the next live take finds its number in hand. A refusal here is not this take's;
    // the take that needs the numbers asks again and hears it.
    if (this.left(session) < LOW && !this.#asking.has(session)) this.#ask(session, SEQ_BLOCK).catch(() => undefined);
    return out;
  }

  /** Drops every number held for `session`, and any reservation in flight for it: the
   *  session's numbering was restarted (a clear). */
  forget(session: string): void {
    this.#ranges.delete(session);
    this.#last.delete(session);
    this.#asking.delete(session);
    this.#epoch.set(session, (this.#epoch.get(session) ?? 0) + 1);
  }

  #ask(session: string, count: number): Promise<void> {
    const epoch = this.#epoch.get(session) ?? 0;
    const p = this.#store.reserveSeqs(session, count, this.#last.get(session) ?? 0).then((b) => {
      // Asked for before a clear: its numbers may be given again; the take asks anew.
      if ((this.#epoch.get(session) ?? 0) !== epoch) return;
      if (b.restarted) this.#ranges.delete(session);
      this.#last.set(session, b.end);
      const ranges = this.#ranges.get(session) ?? [];
      ranges.push({ next: b.first, end: b.end });
      this.#ranges.set(session, ranges);
    }).finally(() => {
      if (this.#asking.get(session) === p) this.#asking.delete(session);
    });
    this.#asking.set(session, p);
    return p;
  }
}
