// What each recent build of a session changed, so a page that last saw build N is sent only
// the rows changed and removed since (a list delta) instead of the whole list.
//
// Hazard: the log is bounded; a page further behind than it remembers gets null and must
// take the whole list. Epochs must be logged consecutively, or `since` would skip changes.
/** How many builds' changes a session remembers by default. */
const CHANGE_LOG = 64;

/** The changes of the recent builds, oldest first. */
export class ChangeLog {
  readonly #entries: { epoch: number; changed: ReadonlySet<string>; removed: ReadonlySet<string> }[] = [];
  readonly #limit: number;

  constructor(limit = CHANGE_LOG) {
    this.#limit = limit;
  }

  /** Logs what build `epoch` (the one after the last logged) changed and removed. */
  add(epoch: number, changed: ReadonlySet<string>, removed: ReadonlySet<string>): void {
    this.#entries.push({ epoch, changed, removed });
    if (this.#entries.length > this.#limit) this.#entries.shift();
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
