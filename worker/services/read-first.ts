// The page's reads go before the backlog's check slices. Once the page is told records
// changed (a live call laid in), the next slice waits for the page's read of it, up to a
// bound: the page reads within a few ms of being told, and its read used to wait out the
// slice running meanwhile (10 ms and a chunk: 13–20 ms of a live call at 100k). Checks' own
// progress notices hold no slice back (they would slow the checks for no live record).
//
// Race, written down: stamps are Date.now() ms; a read in the same ms as the notice counts
// as having read it (at worst one slice runs before a read that was in flight anyway).

export interface ReadFirstDeps {
  /** True while a page listens (is told of changes, and reads its view after). */
  listening: () => boolean;
  /** When the page was last told records changed (Date.now()), 0 before the first time. */
  changed: () => number;
  /** How long a slice waits for the page's read, from the notice. */
  waitMs: number;
  now?: () => number;
}

export class ReadFirst {
  readonly #deps: ReadFirstDeps;
  #lastRead = 0;
  readonly #waiters = new Set<() => void>();

  constructor(deps: ReadFirstDeps) {
    this.#deps = deps;
  }

  /** When a view was last built for a page's read (Date.now()), 0 before the first. */
  get lastRead(): number {
    return this.#lastRead;
  }

  /** A view was built for a read: whatever waited for it goes on, at the next turn of the
   *  event loop. Resumed at once, a slice ran in this task's microtasks, ahead of the read's
   *  own answer (posted a few microtasks later): 10–20 ms more for the live call. */
  read(): void {
    this.#lastRead = (this.#deps.now ?? Date.now)();
    if (this.#waiters.size === 0) return;
    setTimeout(() => {
      for (const w of [...this.#waiters]) w();
    }, 0);
  }

  /** Resolves at the page's read of the last change it was told of, or once `waitMs` passed
   *  since the notice; null when nothing is awaited (read already, too late, no page). */
  pending(): Promise<void> | null {
    const changed = this.#deps.changed();
    const since = (this.#deps.now ?? Date.now)() - changed;
    if (!this.#deps.listening() || this.#lastRead >= changed || since >= this.#deps.waitMs) return null;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.#deps.waitMs - since);
      this.#waiters.add(done);
    });
  }
}
