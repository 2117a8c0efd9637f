/**
 * The bytes of body the relay may hold for recording at once, across all open exchanges
 * (request bodies kept for their records, response bodies as they are recorded). The
 * count bound (relay.ts) alone lets 64 exchanges each hold their full share; this bounds
 * their sum. Past it an exchange still passes through whole, but what did not fit is not
 * recorded and its record says so (`truncated`, with the bytes kept and the size).
 */
export class RecordingBudget {
  #held = 0;
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Bytes held now. */
  get held(): number {
    return this.#held;
  }

  /** Takes `n` bytes if they fit; false (and nothing taken) when they do not. */
  take(n: number): boolean {
    if (this.#held + n > this.limit) return false;
    this.#held += n;
    return true;
  }

  /** Gives back bytes taken. */
  give(n: number): void {
    this.#held = Math.max(0, this.#held - n);
  }
}

/** Default: 32 exchanges' worth of full records (4 MiB each way). */
export const DEFAULT_RECORDING_BUDGET = 256 * 1024 * 1024;
