// A bound on what a reader holds in memory before storage catches up: bytes read, laid into
// the session and not yet written (records are kept whole until written). The relay feed
// reads drain after drain while the bytes it holds stay under the bound, as a page import
// reads on until too much of its file is unwritten (services/import-api.ts), instead of
// waiting for each drain's storage before reading the next one.
//
// Hazard: a read whose writes never settle (a stopped writer must settle them false, as
// write-behind.ts does) keeps its bytes counted for ever, and `room` never resolves.

/**
 * File bytes read but not yet written before the reading waits for storage, for a page
 * import and a relay backlog alike (bounds memory: those records are held whole until
 * written). Counted in bytes, not records: a 100k-exchange HAR (175 MB) or a 100k backlog
 * (154 MB) is listed without stopping for storage, anything larger stops each time this much
 * is held. Measured: importing that 100k file peaked at 489 MB of worker heap (216 MB once
 * stored and lean), about three times the bytes held.
 */
export const MAX_UNWRITTEN_BYTES = 256 << 20;

/** Bytes read and not yet written, with a way to wait until they fall under the bound. */
export class UnwrittenBudget {
  readonly #limit: number;
  #bytes = 0;
  #wake: (() => void)[] = [];

  /** `limit`: the bytes held unwritten past which `room` waits (at least one read always fits). */
  constructor(limit: number) {
    if (!(limit > 0)) throw new RangeError(`An unwritten-bytes budget must be a positive number of bytes, got ${limit}.`);
    this.#limit = limit;
  }

  /** Bytes read whose writes have not all settled. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True while what is held is under the bound: the next read may start. */
  get open(): boolean {
    return this.#bytes < this.#limit;
  }

  /** Counts `bytes` as held until `written` settles (committed or refused: either way it is no longer waiting). */
  hold(bytes: number, written: Promise<unknown>): void {
    this.#bytes += bytes;
    const settle = () => {
      this.#bytes -= bytes;
      if (this.open) for (const wake of this.#wake.splice(0)) wake();
    };
    written.then(settle, settle);
  }

  /** Resolves once what is held is under the bound. */
  room(): Promise<void> {
    if (this.open) return Promise.resolve();
    return new Promise((resolve) => this.#wake.push(resolve));
  }
}
