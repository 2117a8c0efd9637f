// Which tab writes the relay's pushes, and what a following tab keeps of them. The relay
// pushes every external exchange to every open inspector page, so with two tabs open both
// analysis workers used to number and write each push: the second write found the id stored
// (another number), merged into it, and made its worker read the whole session again from
// storage (capture/write-behind.ts, `collided`), once per live call (at 100k exchanges, every
// one read and analysed again). Now the tabs elect one writer through a Web Lock held for the
// worker's life: the holder numbers, lays in and writes the pushes; every other tab follows,
// listing what the writer stored as its notices come (the capture channel, as for the tap's
// writes), and keeps the pushes it heard, newest copy per id, until a notice says they are
// stored (`FollowedPushes`). When the writer's worker ends (its tab closed, crashed), the
// lock passes to a follower, which takes what it kept and no notice covered, so nothing the
// writer did not store is lost; a follower also writes a push no notice covered within
// FOLLOW_WAIT_MS, which the writer never got.
//
// Without Web Locks (Node, tests) every feed writes, as before.
import type { ExchangeRecord } from '../protocol.js';
import { supersedes } from '../storage/index.js';
import { storedIds, type CaptureNotice } from './notices.js';

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

/** Pushes a following tab keeps at most while no notice says they are stored (the oldest go first). */
export const FOLLOWED_MAX = 10_000;

/**
 * How long a following tab waits for the writer's notice of a push it heard before it writes
 * the push itself. The writer's notice comes within milliseconds of its write; none after
 * this long means the writer never got the push (the relay dropped its stream as too slow, it
 * was reconnecting) and the relay kept no copy, so this tab is the only one holding it. A
 * writer that was only late makes this tab's write collide: merged, that session read again.
 */
export const FOLLOW_WAIT_MS = 5_000;

/** What a following tab keeps of the pushes it heard: the newest copy per id, until the writer's notice. */
export class FollowedPushes {
  readonly #kept = new Map<string, { r: ExchangeRecord; at: number }>();
  #sweep: ReturnType<typeof setInterval> | null = null;

  /** `take`: write a push as this tab's own; `waitMs`: FOLLOW_WAIT_MS unless a test's own. */
  constructor(private readonly take: (r: ExchangeRecord) => void, private readonly waitMs = FOLLOW_WAIT_MS) {}

  /** A push another tab writes: kept until its notice comes, or taken once none came in `waitMs`. */
  keep(r: ExchangeRecord): void {
    const have = this.#kept.get(r.id);
    if (have && !supersedes(r, have.r)) return;
    this.#kept.delete(r.id); // re-inserted last: the Map's order is the age
    this.#kept.set(r.id, { r, at: Date.now() });
    if (this.#kept.size > FOLLOWED_MAX) this.#kept.delete(this.#kept.keys().next().value!);
    this.#sweep ??= setInterval(() => {
      const before = Date.now() - this.waitMs;
      this.#takeSome((kept) => kept.at <= before);
    }, Math.max(10, this.waitMs / 5));
  }

  /** A notice on the capture channel: what it says is stored is not kept any more. */
  heard(notice: CaptureNotice): void {
    if (this.#kept.size === 0) return;
    // A refused write (unsaved, storage error) stored nothing: kept, for whoever writes next.
    for (const id of storedIds(notice)) this.#kept.delete(id);
  }

  /** This tab became the writer: everything kept is taken. */
  takeAll(): void {
    this.#takeSome(() => true);
  }

  stop(): void {
    this.#kept.clear();
    this.#stopSweep();
  }

  #takeSome(which: (kept: { r: ExchangeRecord; at: number }) => boolean): void {
    for (const [id, kept] of this.#kept) {
      if (!which(kept)) continue;
      this.#kept.delete(id);
      this.take(kept.r);
    }
    if (this.#kept.size === 0) this.#stopSweep();
  }

  #stopSweep(): void {
    if (this.#sweep !== null) clearInterval(this.#sweep);
    this.#sweep = null;
  }
}
