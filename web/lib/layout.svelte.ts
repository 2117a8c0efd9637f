// Pane sizes, list columns and which panes are open, persisted in localStorage so the layout
// survives a reload. What is stored is what the user chose; what is shown is fitted to the
// window (`fitPanes`), so a size kept from a bigger screen never hides a pane or squeezes
// the Console below its form.
import {
  clamp, COLUMN_DEFAULTS, COLUMN_MAX, COLUMN_MIN, COLUMNS, DETAIL_MIN, DRAWER_MIN, LIST_MIN, num, type Column, type ColumnId,
} from './pane-fit.js';

export { COLUMN_TITLES, COLUMNS, columnTemplate, fitPanes, STACK_BELOW, type Column, type ColumnId } from './pane-fit.js';

const KEY = 'mrtr-inspector.layout.v1';

interface Saved {
  listWidth: number;
  detailWidth: number;
  /** Null until the user resizes the Console: then it takes DRAWER_SHARE of the window. */
  drawerHeight: number | null;
  drawerOpen: boolean;
  /** The Console takes the whole height below the toolbar. */
  drawerMax: boolean;
  columns: Record<ColumnId, Column>;
}

const DEFAULTS: Saved = {
  listWidth: 600, detailWidth: 460, drawerHeight: null, drawerOpen: true, drawerMax: false,
  columns: Object.fromEntries(COLUMNS.map((c) => [c, { width: COLUMN_DEFAULTS[c], hidden: false }])) as Record<ColumnId, Column>,
};

function loadColumns(v: unknown): Record<ColumnId, Column> {
  const out = {} as Record<ColumnId, Column>;
  const got = (v && typeof v === 'object' ? v : {}) as Record<string, Partial<Column> | undefined>;
  for (const c of COLUMNS) {
    const s = got[c];
    out[c] = { width: clamp(num(s?.width, COLUMN_DEFAULTS[c]), COLUMN_MIN, COLUMN_MAX), hidden: typeof s?.hidden === 'boolean' ? s.hidden : false };
  }
  // The name is what a row is for: it cannot be hidden.
  out.name.hidden = false;
  return out;
}

function load(): Saved {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return structuredClone(DEFAULTS);
    const v = JSON.parse(raw) as Partial<Saved>;
    return {
      listWidth: num(v.listWidth, DEFAULTS.listWidth),
      detailWidth: num(v.detailWidth, DEFAULTS.detailWidth),
      // Heights stored before the Console had a floor are raised to it.
      drawerHeight: typeof v.drawerHeight === 'number' && Number.isFinite(v.drawerHeight) ? Math.max(DRAWER_MIN, v.drawerHeight) : null,
      drawerOpen: typeof v.drawerOpen === 'boolean' ? v.drawerOpen : DEFAULTS.drawerOpen,
      drawerMax: typeof v.drawerMax === 'boolean' ? v.drawerMax : DEFAULTS.drawerMax,
      columns: loadColumns(v.columns),
    };
  } catch {
    return structuredClone(DEFAULTS);
  }
}

export class Layout {
  #s = $state<Saved>(load());

  get listWidth(): number { return this.#s.listWidth; }
  get detailWidth(): number { return this.#s.detailWidth; }
  get drawerHeight(): number | null { return this.#s.drawerHeight; }
  get drawerOpen(): boolean { return this.#s.drawerOpen; }
  get drawerMax(): boolean { return this.#s.drawerMax; }
  get columns(): Readonly<Record<ColumnId, Column>> { return this.#s.columns; }

  resizeList(px: number): void { this.#s.listWidth = clamp(px, LIST_MIN, 2000); this.#save(); }
  resizeDetail(px: number): void { this.#s.detailWidth = clamp(px, DETAIL_MIN, 2000); this.#save(); }
  resizeDrawer(px: number): void { this.#s.drawerHeight = clamp(px, DRAWER_MIN, 2000); this.#save(); }
  toggleDrawer(open = !this.#s.drawerOpen): void { this.#s.drawerOpen = open; this.#save(); }
  maximiseDrawer(on = !this.#s.drawerMax): void { this.#s.drawerMax = on; this.#save(); }
  resizeColumn(c: ColumnId, px: number): void { this.#s.columns[c].width = clamp(Math.round(px), COLUMN_MIN, COLUMN_MAX); this.#save(); }
  showColumn(c: ColumnId, shown: boolean): void {
    if (c === 'name') return;
    this.#s.columns[c].hidden = !shown;
    this.#save();
  }

  #save(): void {
    try {
      localStorage.setItem(KEY, JSON.stringify(this.#s));
    } catch {
      // Storage full or blocked: the layout just is not remembered.
    }
  }
}
