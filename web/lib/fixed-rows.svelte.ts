// The rows in view of a list of rows of one fixed height in a component's own scroller (the
// conversation list, the Console's exchange table): which to draw, from the scroller's offset
// and height, and where. Called while the component is created (it makes an effect that
// follows the scroller's scrolling and size).
//
// Why not a virtual-list library: with rows of one height the rows in view are two divisions,
// whatever the row count. @tanstack/virtual-core (used before) measured every row again
// whenever the count changed, as every live call changes it: 0.5 ms a call at 6,700 rows,
// 1.7 ms at 33,000 (a 100k-exchange session), 32 ms at 333,000 (1M), in Node.
//
// The rows handed out are the same array while the range in view is the same, so a count
// change below the view (a live call appended while the top is shown) changes nothing drawn.

/** A row to draw: its place in the list and its top, from the top of the rows (below `margin`). */
export interface FixedRow {
  readonly index: number;
  readonly start: number;
}

export interface FixedRowsOptions {
  /** Row height in px. */
  row: number;
  /** Rows drawn beyond the view, either side. */
  overscan: number;
  /** What sits above the rows inside the scroller and stays on top (a sticky header), in px. */
  margin: number;
  scroller: () => HTMLElement | undefined;
  count: () => number;
}

/** The places of the rows to draw (first..last, inclusive; last < first when none). */
export function rowRange(count: number, top: number, height: number, o: Pick<FixedRowsOptions, 'row' | 'overscan' | 'margin'>): { first: number; last: number } {
  if (count <= 0) return { first: 0, last: -1 };
  const first = Math.max(0, Math.floor((top - o.margin) / o.row) - o.overscan);
  const last = Math.min(count - 1, Math.ceil((top + Math.max(0, height) - o.margin) / o.row) - 1 + o.overscan);
  return last < first ? { first: Math.max(0, count - 1 - o.overscan), last: count - 1 } : { first, last };
}

/** The scroll offset that shows row `index` whole below the margin, moving the least; null
 *  when it is shown whole already. */
export function scrollFor(index: number, top: number, height: number, o: Pick<FixedRowsOptions, 'row' | 'margin'>): number | null {
  const rowTop = index * o.row; // offset that puts the row just below the margin
  const rowEnd = o.margin + (index + 1) * o.row - height; // offset that puts its bottom at the view's
  if (top > rowTop) return rowTop;
  if (top < rowEnd) return Math.min(rowEnd, rowTop);
  return null;
}

export class FixedRows {
  readonly #o: FixedRowsOptions;
  #top = $state(0);
  #height = $state(0);
  #drawn: { first: number; last: number; rows: FixedRow[] } = { first: 0, last: -1, rows: [] };
  readonly #rows = $derived.by(() => this.#rowsOf(rowRange(this.#o.count(), this.#top, this.#height, this.#o)));

  constructor(o: FixedRowsOptions) {
    this.#o = o;
    $effect(() => {
      const el = o.scroller();
      if (!el) return;
      const read = () => {
        this.#top = el.scrollTop;
        this.#height = el.clientHeight;
      };
      read();
      const sized = new ResizeObserver(read);
      sized.observe(el);
      el.addEventListener('scroll', read, { passive: true });
      return () => {
        sized.disconnect();
        el.removeEventListener('scroll', read);
      };
    });
  }

  /** The rows to draw, in order. */
  get rows(): readonly FixedRow[] {
    return this.#rows;
  }

  /** The height of all the rows, in px. */
  get totalSize(): number {
    return this.#o.count() * this.#o.row;
  }

  /** Scrolls row `index` into view, when it is not in view whole. */
  scrollToIndex(index: number): void {
    const el = this.#o.scroller();
    if (!el || index < 0 || index >= this.#o.count()) return;
    const to = scrollFor(index, el.scrollTop, el.clientHeight, this.#o);
    if (to !== null) el.scrollTop = to;
  }

  #rowsOf({ first, last }: { first: number; last: number }): FixedRow[] {
    if (first === this.#drawn.first && last === this.#drawn.last) return this.#drawn.rows;
    const rows: FixedRow[] = [];
    for (let i = first; i <= last; i++) rows.push({ index: i, start: i * this.#o.row });
    this.#drawn = { first, last, rows };
    return rows;
  }
}

/** The rows in view of a component's scroller (see the head of this file). */
export function fixedRows(o: FixedRowsOptions): FixedRows {
  return new FixedRows(o);
}
