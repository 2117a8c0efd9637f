// One tab drains the relay's backlog at a time. Every tab's analysis worker drains the backlog
// on each `open` of its event stream, and a drain's records are numbered and listed before they
// are written (capture/write-behind.ts), so two tabs opened at once used to number the same
// ids: the second write of each id collided, was merged into the stored copy, and that tab read
// its whole session again from storage. A run of drains now holds a Web Lock: a second tab's
// run waits until the first ended (its drains stored and acknowledged, or refused), and then
// drains only what is left (nothing, or what the first could not store). Meanwhile it lists
// what the first laid in: while a tab waits, the holder sends its run's numbered copies when
// its writes begin (`backlog-laid`, backlog-share.ts), then its writes' `exchanges-stored`.
//
// Hazard, written down: a holder that stopped moving (a hung or frozen worker) would block the
// others for ever, and a slow one must not be mistaken for it. The wait is bounded by silence,
// not by length: each notice of another tab's relay feed saying it moved (`backlog-laid`, a
// batch of its run read, or its copies sent; `exchanges-stored`, a write committed) restarts
// the bound, and once none came for DRAIN_STALL_MS the waiting tab drains anyway, as two tabs did
// before; the merge rules keep that correct (collided, merged, read again). The longest
// silence of a moving holder is between its last batch read and its first write (the list is
// built first), seconds at 100k.
//
// Without Web Locks (Node, tests) every run starts at once, as before.

/** The lock a run of backlog drains holds, in every tab's analysis worker. */
export const BACKLOG_LOCK = 'mrtr-inspector:relay-backlog';

/** How long a waiting run goes without hearing the holder store anything before it drains anyway. */
export const DRAIN_STALL_MS = 30_000;

/** The part of the Web Locks API used (navigator.locks in a worker). */
export interface DrainLocks {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<unknown>): Promise<unknown>;
  /** What is held and asked for, across the origin's tabs and workers. */
  query?(): Promise<{ pending?: { name?: string }[] }>;
}

/** Runs of drains, one tab at a time; `progressed` is told of the other tabs' stored writes. */
export class BacklogLock {
  readonly #locks: DrainLocks | undefined;
  readonly #stallMs: number;
  /** The waits in progress: each restarted by `progressed`, ended by `stop`. */
  readonly #waits = new Map<() => void, AbortController>();

  /** `locks`: the worker's lock manager (none: runs start at once); `stallMs`: DRAIN_STALL_MS unless a test's own. */
  constructor(locks: DrainLocks | undefined, stallMs = DRAIN_STALL_MS) {
    this.#locks = locks;
    this.#stallMs = stallMs;
  }

  /**
   * Calls `run` holding the lock and resolves with its result; `run` is called once the lock
   * is granted, or without it once the holder was silent for the stall bound.
   */
  async hold<T>(run: () => Promise<T>): Promise<T> {
    const locks = this.#locks;
    if (!locks) return run();
    const gaveUp = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => gaveUp.abort(), this.#stallMs);
    };
    restart();
    this.#waits.set(restart, gaveUp);
    let granted = false;
    const stopWaiting = () => {
      clearTimeout(timer);
      this.#waits.delete(restart);
    };
    try {
      return (await locks.request(BACKLOG_LOCK, { signal: gaveUp.signal }, () => {
        granted = true;
        stopWaiting();
        return run();
      })) as T;
    } catch (err) {
      // The run's own failure is the caller's; a wait given up on runs without the lock.
      if (granted) throw err;
      stopWaiting();
      return run();
    } finally {
      stopWaiting();
    }
  }

  /** Another tab read or stored a batch: the holder is moving, so the waits go on. */
  progressed(): void {
    for (const restart of this.#waits.keys()) restart();
  }

  /** True when another run waits for the lock (in another tab: this feed runs one at a time). */
  async othersWaiting(): Promise<boolean> {
    const state = await this.#locks?.query?.().catch(() => undefined);
    return state?.pending?.some((l) => l.name === BACKLOG_LOCK) ?? false;
  }

  /** The feed stopped: no wait goes on (each run is called at once, and finds the feed stopped). */
  stop(): void {
    for (const gaveUp of this.#waits.values()) gaveUp.abort();
  }
}
