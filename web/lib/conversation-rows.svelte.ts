// The conversation list of the session on screen, through the typed filter: the rows come
// from the worker, whole or as only the rows that changed since the page's copy, folded into
// that copy at the cost of what changed (row-store.ts), and each update replaces the list
// object the views read ($state.raw). Typing in the filter box
// waits FILTER_DELAY_MS for the next key before asking; Enter asks at once.
//
// Race, written down: filter edits and captures ask faster than the worker answers. Each
// request carries a ticket; an answer whose ticket is no longer the latest is dropped, so
// the list never shows the rows of a filter that was typed over.
//
// A column sort (sort-rows.ts) is applied here, on the page's copy, so the list, j/k and
// every reader of `list` see one order; deltas still apply to the worker's order beneath.
import type { ConversationList, ConversationSummary } from '../../worker/facade.js';
import type { Calls } from './analysis-client.js';
import { RowStore, type ListEntries } from './row-store.js';
import { nextSort, sortRows, type RowSort } from './sort-rows.js';
import type { ColumnId } from './pane-fit.js';

export const FILTER_DELAY_MS = 120;

export interface RowsApi { readonly sessions: Calls<'sessions', 'conversationsSince'> }

export interface RowsDeps {
  api: () => RowsApi | null;
  session: () => string | null;
  /** A failed read (the message), or null once a read succeeded. */
  report: (error: string | null) => void;
}

export class ConversationRows {
  #list = $state.raw<ConversationList | null>(null);
  /** The page's copy of the rows, kept in place (row-store.ts); `#list` is its latest list. */
  readonly #store = new RowStore();
  #sort = $state.raw<RowSort | null>(null);
  readonly #sorted = $derived.by((): ConversationList | null => {
    const list = this.#list;
    return list && this.#sort ? { ...list, items: [...sortRows(list.items, this.#sort)] } : list;
  });
  /** Which list `#list` is a copy of, and as of which worker build (for deltas). */
  #listOf: { session: string; filter: string; epoch: number } | null = null;
  #lastUpdate = $state<'whole' | 'delta' | null>(null);
  #filter = $state('');
  #ticket = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  readonly #deps: RowsDeps;

  constructor(deps: RowsDeps) {
    this.#deps = deps;
  }

  /** The rows with the status bar's counts and the filter's state; null before the first answer. */
  get list(): ConversationList | null { return this.#sorted; }
  /** The column the rows are sorted by, or null for capture order. */
  get sort(): RowSort | null { return this.#sort; }
  /** A click on a column header: ascending, then descending, then capture order. */
  sortBy(column: ColumnId): void { this.#sort = nextSort(this.#sort, column); }
  /** How the last list load came: whole, or only the changed rows. */
  get lastUpdate(): 'whole' | 'delta' | null { return this.#lastUpdate; }
  get filter(): string { return this.#filter; }

  /** Where conversation `id` is in the rows; -1 when it is not there. */
  indexOf(id: string | null): number {
    const list = this.#sorted;
    if (!list || !id) return -1;
    // In capture order the store knows each row's place; a column sort is a reordered copy.
    return list === this.#list ? this.#store.placeOf(id) : list.items.findIndex((c) => c.id === id);
  }

  /** The row of conversation `id`, if the list holds it (no walk of the rows). */
  rowOf(id: string): ConversationSummary | undefined {
    void this.#list; // read in a view, it follows the list's updates
    return this.#store.rowOf(id);
  }

  /** The entries to draw, Console runs folded (`open`: the runs shown open). */
  entries(open: ReadonlySet<string>, selected: string | null): ListEntries {
    return this.#store.entries(this.#sorted?.items ?? [], open, selected);
  }

  /** Starts over on another session: the rows go, and an answer on its way is dropped. */
  reset(): void {
    this.#ticket++;
    this.#list = null;
    this.#listOf = null;
    this.#store.reset();
  }

  /** The filter box's text; the rows follow once typing pauses. */
  setFilter(text: string): void {
    this.#filter = text;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.load();
    }, FILTER_DELAY_MS);
  }

  /** Applies the filter now (Enter in the box). */
  applyFilter(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    return this.load();
  }

  /** Re-reads the rows: only those that changed when the copy is of this session and filter. */
  async load(): Promise<void> {
    const api = this.#deps.api();
    const session = this.#deps.session();
    if (!api || !session) return;
    const ticket = ++this.#ticket;
    const held = this.#listOf?.session === session && this.#listOf.filter === this.#filter ? this.#listOf : null;
    const got = await api.sessions.conversationsSince(session, this.#filter, held?.epoch ?? null);
    if (ticket !== this.#ticket) return;
    if (!got.ok) {
      this.#deps.report(got.error.message);
      return;
    }
    this.#deps.report(null);
    // The bench (test/bench/ui.ts) measures from this mark to the first screen of rows.
    performance.mark('mrtr:list-answer');
    if (!held) this.#store.reset();
    const next = this.#store.apply(got.value);
    if (next === null) {
      this.#listOf = null; // nothing to apply a delta to: the next load asks for the whole list
      return void this.load();
    }
    this.#listOf = { session, filter: this.#filter, epoch: got.value.epoch };
    this.#lastUpdate = got.value.kind;
    this.#list = next;
  }
}
