// Which tab writes the relay's pushes. The relay pushes every external exchange to every open
// inspector page, so with two tabs open both analysis workers used to number and write each
// push: the second write found the id stored (another number), merged into it, and made its
// worker read the whole session again from storage (capture/write-behind.ts, `collided`),
// once per live call (at 100k exchanges, every one read and analysed again). Now the tabs
// elect one writer through a Web Lock held for the worker's life: the holder numbers, lays
// in and writes the pushes; every
// other tab follows, listing what the writer stored as its notices come (the capture
// channel, as for the tap's writes), and keeps the pushes it heard, newest copy per id, until
// a notice says they are stored. When the writer's worker ends (its tab closed, crashed), the
// lock passes to a follower, which takes what it kept and no notice covered, so nothing the
// writer did not store is lost; a follower also writes a push no notice covered within
// FOLLOW_WAIT_MS (capture/relay-feed.ts), which the writer never got.
//
// Without Web Locks (Node, tests) every feed writes, as before.

/** The lock the tabs' analysis workers queue for; its holder writes the relay's pushes. */
export const PUSH_WRITER_LOCK = 'mrtr-inspector:relay-push-writer';

/** The part of the Web Locks API used (navigator.locks in a worker). */
export interface WriterLocks {
  request(name: string, callback: () => Promise<unknown>): Promise<unknown>;
}

export class PushWriter {
  #leading: boolean;
  readonly #onLead: (() => void)[] = [];

  /** `locks`: the worker's lock manager; none: this feed writes (the only one there is). */
  constructor(locks: WriterLocks | undefined) {
    this.#leading = locks === undefined;
    // Held for the worker's life: the promise never settles, the lock goes when the worker does.
    void locks?.request(PUSH_WRITER_LOCK, () => {
      this.#leading = true;
      for (const fn of this.#onLead.splice(0)) fn();
      return new Promise<never>(() => undefined);
    });
  }

  /** True once this worker writes the pushes. */
  get leading(): boolean {
    return this.#leading;
  }

  /** Called once, when this worker becomes the writer (at once if it is). */
  onLead(fn: () => void): void {
    if (this.#leading) fn();
    else this.#onLead.push(fn);
  }
}
