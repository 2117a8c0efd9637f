// Pane sizes and which panes are open, persisted in localStorage so the layout survives a
// reload. Sizes are clamped, so a stored value from a bigger screen never hides a pane.
const KEY = 'mrtr-inspector.layout.v1';

interface Saved {
  listWidth: number;
  detailWidth: number;
  drawerHeight: number;
  drawerOpen: boolean;
}

const DEFAULTS: Saved = { listWidth: 540, detailWidth: 460, drawerHeight: 220, drawerOpen: true };

function load(): Saved {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return { ...DEFAULTS };
    const v = JSON.parse(raw) as Partial<Saved>;
    const n = (x: unknown, d: number) => (typeof x === 'number' && Number.isFinite(x) ? x : d);
    return {
      listWidth: n(v.listWidth, DEFAULTS.listWidth),
      detailWidth: n(v.detailWidth, DEFAULTS.detailWidth),
      drawerHeight: n(v.drawerHeight, DEFAULTS.drawerHeight),
      drawerOpen: typeof v.drawerOpen === 'boolean' ? v.drawerOpen : DEFAULTS.drawerOpen,
    };
  } catch {
    return { ...DEFAULTS };
  }
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export class Layout {
  #s = $state<Saved>(load());

  get listWidth(): number { return this.#s.listWidth; }
  get detailWidth(): number { return this.#s.detailWidth; }
  get drawerHeight(): number { return this.#s.drawerHeight; }
  get drawerOpen(): boolean { return this.#s.drawerOpen; }

  resizeList(px: number): void { this.#s.listWidth = clamp(px, 200, 1200); this.#save(); }
  resizeDetail(px: number): void { this.#s.detailWidth = clamp(px, 240, 1400); this.#save(); }
  resizeDrawer(px: number): void { this.#s.drawerHeight = clamp(px, 80, 900); this.#save(); }
  toggleDrawer(open = !this.#s.drawerOpen): void { this.#s.drawerOpen = open; this.#save(); }

  #save(): void {
    try {
      localStorage.setItem(KEY, JSON.stringify(this.#s));
    } catch {
      // Storage full or blocked: the layout just is not remembered.
    }
  }
}
