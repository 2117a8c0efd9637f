// Runs a job at most once per window while changes keep arriving: a response streaming
// 1,000 events is analysed a handful of times, not 1,000. The window is a timer, not a
// frame (a worker has no frames); reads do not wait for it, they analyse what is there.
//
// Race, written down: a change that arrives while the job runs is not lost: it marks the
// coalescer dirty and one more run follows the current one.

/** The timer functions, injectable so tests can step time. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

export class Coalescer {
  #timer: unknown = null;
  #running: Promise<void> | null = null;
  #dirty = false;
  /** How many times the job ran. */
  runs = 0;

  constructor(private readonly job: () => Promise<unknown>, private readonly windowMs = 16, private readonly timers: Timers = REAL) {}

  /** Something changed: run the job once the window closes (one run for many pokes). */
  poke(): void {
    this.#dirty = true;
    if (this.#timer !== null || this.#running !== null) return;
    this.#timer = this.timers.set(() => this.#fire(), this.windowMs);
  }

  /** Resolves when no run is due or running. */
  async idle(): Promise<void> {
    while (this.#timer !== null || this.#running !== null) await (this.#running ?? new Promise((r) => setTimeout(r, this.windowMs)));
  }

  #fire(): void {
    this.#timer = null;
    if (!this.#dirty) return;
    this.#dirty = false;
    this.runs += 1;
    this.#running = this.job().then(() => undefined, () => undefined).finally(() => {
      this.#running = null;
      if (this.#dirty) this.#timer = this.timers.set(() => this.#fire(), this.windowMs);
    });
  }
}
