// The page's copy of the conversation list, kept so a list update costs what it changed, not
// what the list holds. After an update the copy is: the rows held, each changed one in its
// place and those removed gone, then the new rows, in capture order (firstSeq) with the
// worker's counts. This store reaches that list in place: a changed row replaces its own at the
// place an id → place index keeps, a new row that comes after every other (a live call) is
// appended, and only a removal or a row that belongs before others rebuilds the list. It
// also counts the rows a Console run folds (run-groups.ts), so the list's entries need no
// walk of every row while there is none (`entries`).
//
// Why: at 33k conversations (a 100k-exchange session) a live call's update cost the page
// 4.9 ms at p50 of copying, folding and searching every row, at 333k (1M exchanges) 152 ms;
// kept in place, 0.03 and 0.06 ms (test/bench/page-rows.ts, in Node). The worker's own work
// for a live call does not grow with the session.
//
// The list handed out is a new object at each update (the page's state is replaced, so
// views follow), over one items array that later updates change in place: a reader keeps
// the latest list, never an older one.
import type { ConversationList, ConversationSummary, ListUpdate } from '../../worker/facade.js';
import { folds, groupRuns, type ListEntry } from './run-groups.js';

/** The rows to draw: by place, and the place of a conversation's row. */
export interface ListEntries {
  readonly length: number;
  at(index: number): ListEntry | undefined;
  /** The place of conversation `id`'s row, -1 when it is not drawn (filtered out, or folded). */
  indexOf(id: string | null): number;
}

export class RowStore {
  #items: ConversationSummary[] = [];
  readonly #place = new Map<string, number>();
  /** Rows a Console run folds into a group row (run-groups.ts `folds`). */
  #folding = 0;
  #list: ConversationList | null = null;
  /** Each row's entry, made once per row object: an update hands the views the same entry for
   *  every row it did not change, so a drawn row whose entry is unchanged is not drawn again
   *  (a new entry per read redrew every row in view at every update: 5–10 ms of the page's
   *  work per live call and per check-progress update). */
  readonly #entryOf = new WeakMap<ConversationSummary, ListEntry>();

  /** The list as of the last update applied, or null before the first (or after `reset`). */
  get list(): ConversationList | null { return this.#list; }

  /** Where conversation `id`'s row is in the list (capture order), -1 when it is not there. */
  placeOf(id: string): number {
    return this.#place.get(id) ?? -1;
  }

  /** The row of conversation `id`, if the list holds it. */
  rowOf(id: string): ConversationSummary | undefined {
    const at = this.#place.get(id);
    return at === undefined ? undefined : this.#items[at];
  }

  /** Forgets the list (another session, another filter). */
  reset(): void {
    this.#items = [];
    this.#place.clear();
    this.#folding = 0;
    this.#list = null;
  }

  /** Applies `update` to the list held; null when it is a delta and nothing is held (ask for the whole list). */
  apply(update: ListUpdate): ConversationList | null {
    if (update.kind === 'whole') {
      this.#rebuild(update.list.items);
      return (this.#list = { items: this.#items, stats: update.list.stats, filter: update.list.filter });
    }
    if (this.#list === null) return null;
    if (update.removed.length > 0) {
      const gone = new Set(update.removed);
      this.#merge(update.changed, this.#items.filter((r) => !gone.has(r.id)));
    } else {
      this.#merge(update.changed, null);
    }
    return (this.#list = { items: this.#items, stats: update.stats, filter: update.filter });
  }

  /** The entries to draw, rows folded by Console run (run-groups.ts); no walk of the rows while nothing folds. */
  entries(items: readonly ConversationSummary[], open: ReadonlySet<string>, selected: string | null): ListEntries {
    if (this.#folding === 0 && items === this.#items) {
      const place = this.#place;
      return {
        length: items.length,
        at: (i) => (i >= 0 && i < items.length ? this.#entry(items[i]!) : undefined),
        indexOf: (id) => (id === null ? -1 : place.get(id) ?? -1),
      };
    }
    // Rows that fold, or another order (a column sort): drawn from the whole folding.
    const all = groupRuns(items, open, selected);
    return {
      length: all.length,
      at: (i) => all[i],
      indexOf: (id) => (id === null ? -1 : all.findIndex((e) => e.kind === 'row' && e.item.id === id)),
    };
  }

  #entry(item: ConversationSummary): ListEntry {
    let e = this.#entryOf.get(item);
    if (e === undefined) this.#entryOf.set(item, (e = { kind: 'row', item, member: false }));
    return e;
  }

  // Changed rows into `base` (the held rows, or what is left of them after a removal): in
  // place where the id is held, appended after; sorted by first exchange only when a new row
  // belongs before one held (as applyListUpdate: rows stay in capture order).
  #merge(changed: readonly ConversationSummary[], base: ConversationSummary[] | null): void {
    if (base !== null) this.#rebuild(base);
    // Held rows first, then the new ones after them (their order decides whether to sort).
    const added: ConversationSummary[] = [];
    for (const row of changed) {
      const at = this.#place.get(row.id);
      if (at === undefined) {
        added.push(row);
        continue;
      }
      this.#folding += (folds(row) ? 1 : 0) - (folds(this.#items[at]!) ? 1 : 0);
      this.#items[at] = row;
    }
    let sorted = true;
    for (const row of added) {
      const at = this.#place.get(row.id);
      if (at !== undefined) { // named twice in one update: the later copy wins, in place
        this.#folding += (folds(row) ? 1 : 0) - (folds(this.#items[at]!) ? 1 : 0);
        this.#items[at] = row;
        continue;
      }
      const last = this.#items[this.#items.length - 1];
      if (last !== undefined && last.firstSeq > row.firstSeq) sorted = false;
      this.#place.set(row.id, this.#items.length);
      this.#items.push(row);
      if (folds(row)) this.#folding += 1;
    }
    if (!sorted) this.#rebuild(this.#items.sort((a, b) => a.firstSeq - b.firstSeq));
  }

  #rebuild(items: ConversationSummary[]): void {
    this.#items = items;
    this.#place.clear();
    this.#folding = 0;
    for (let i = 0; i < items.length; i++) {
      const row = items[i]!;
      this.#place.set(row.id, i);
      if (folds(row)) this.#folding += 1;
    }
  }
}
