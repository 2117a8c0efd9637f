// What each recent build of a session changed, so a page that last saw build N is sent only
// the rows changed and removed since (a list delta) instead of the whole list.
//
// Hazard: the log is bounded; a page further behind than it remembers gets null and must
// take the whole list. Epochs must be logged consecutively, or `since` would skip changes.
//
// A build's checks may be deferred (`logBuild`, see view/session-model.ts): their rows are
// held back, unlogged, until a build that publishes logs them all with its own.
/** How many builds' changes a session remembers by default. */
const CHANGE_LOG = 64;

const NOTHING: ReadonlySet<string> = new Set();

/** What a build logs: its own changes (a page's read), its own later (a deferring check
 *  slice), or its own and all held back (a slice the page is told of). */
export type LogMode = 'own' | 'defer' | 'all';

/** The changes of the recent builds, oldest first. */
export class ChangeLog {
  readonly #entries: { epoch: number; changed: ReadonlySet<string>; removed: ReadonlySet<string> }[] = [];
  readonly #limit: number;
  /** Rows deferred checks changed that no build logged yet. */
  readonly #held = new Set<string>();

  constructor(limit = CHANGE_LOG) {
    this.#limit = limit;
  }

  /** Logs what build `epoch` (the one after the last logged) changed and removed. */
  add(epoch: number, changed: ReadonlySet<string>, removed: ReadonlySet<string>): void {
    this.#entries.push({ epoch, changed, removed });
    if (this.#entries.length > this.#limit) this.#entries.shift();
  }

  /** Rows held back by deferring builds, not logged yet. */
  get unpublished(): number {
    return this.#held.size;
  }

  /** Logs build `epoch` as `mode` says; once nothing is left unchecked, whatever is held
   *  back is logged with it. Removals are logged at once. */
  logBuild(epoch: number, changed: ReadonlySet<string>, removed: ReadonlySet<string>, unchecked: number, mode: LogMode): void {
    this.add(epoch, this.#publish(changed, removed, unchecked > 0 ? mode : 'all'), removed);
  }

  #publish(changed: ReadonlySet<string>, removed: ReadonlySet<string>, mode: LogMode): ReadonlySet<string> {
    const held = this.#held;
    for (const id of removed) held.delete(id);
    if (mode === 'defer') {
      for (const id of changed) held.add(id);
      return NOTHING;
    }
    if (held.size === 0) return changed;
    if (mode === 'own') {
      for (const id of changed) held.delete(id);
      return changed;
    }
    const all = new Set(held);
    for (const id of changed) all.add(id);
    held.clear();
    return all;
  }

  /** Ids changed and removed after build `since` up to build `epoch`, or null when `since`
   *  is older than the log remembers (or later than `epoch`). */
  since(since: number, epoch: number): { changed: Set<string>; removed: Set<string> } | null {
    if (since === epoch) return { changed: new Set(), removed: new Set() };
    const log = this.#entries;
    const from = log.findIndex((e) => e.epoch === since + 1);
    if (from < 0 || since > epoch) return null;
    const changed = new Set<string>();
    const removed = new Set<string>();
    for (const e of log.slice(from)) {
      if (e.epoch > epoch) break;
      for (const id of e.removed) { removed.add(id); changed.delete(id); }
      for (const id of e.changed) { changed.add(id); removed.delete(id); }
    }
    return { changed, removed };
  }
}
