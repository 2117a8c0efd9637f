// Pure layout rules (no state, no DOM): the list's columns and how stored pane sizes are
// fitted to the window. Layout (layout.svelte.ts) stores; this decides what is shown.

/** The conversation list's columns, in order. */
export const COLUMNS = ['method', 'name', 'rounds', 'status', 'findings', 'duration'] as const;
export type ColumnId = (typeof COLUMNS)[number];
export interface Column { width: number; hidden: boolean }

export const COLUMN_TITLES: Record<ColumnId, string> = {
  method: 'Method', name: 'Name', rounds: 'Rounds', status: 'Status', findings: 'Findings', duration: 'Duration',
};
export const COLUMN_DEFAULTS: Record<ColumnId, number> = { method: 84, name: 150, rounds: 56, status: 86, findings: 64, duration: 64 };
export const COLUMN_MIN = 36;
export const COLUMN_MAX = 800;

/** Below this window width the detail pane becomes a tab of the thread area. */
export const STACK_BELOW = 1200;
/** Narrowest thread, list and detail pane (side by side). */
export const THREAD_MIN = 320;
export const LIST_MIN = 260;
export const DETAIL_MIN = 320;
/** The Console's call form (tool picker, one form, the send row) needs this much height. */
export const DRAWER_MIN = 320;
/** The share of the window's height an open Console takes until resized. */
export const DRAWER_SHARE = 0.42;
/** Height kept for the panes above an open Console. */
export const PANES_MIN_H = 180;
/** Toolbar and status bar together (approximately; notices come and go). */
const CHROME_H = 60;

export const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(lo, hi), Math.max(lo, v));
export const num = (x: unknown, d: number) => (typeof x === 'number' && Number.isFinite(x) ? x : d);

/** The sizes shown in a window of this size. */
export interface Fitted {
  /** The detail pane is a tab of the thread area rather than a pane of its own. */
  stacked: boolean;
  listWidth: number;
  detailWidth: number;
  drawerHeight: number;
}

/**
 * Fits stored sizes to the window: the thread keeps THREAD_MIN, the list and detail pane
 * their minimums, the Console at least DRAWER_MIN and the panes above it PANES_MIN_H.
 * Pure, so the rule can be tested without a browser.
 */
export function fitPanes(s: { listWidth: number; detailWidth: number; drawerHeight: number | null }, vw: number, vh: number): Fitted {
  const stacked = vw < STACK_BELOW;
  const handles = stacked ? 5 : 10;
  const listWidth = stacked
    ? clamp(s.listWidth, LIST_MIN, Math.round(vw * 0.55))
    : clamp(s.listWidth, LIST_MIN, vw - THREAD_MIN - DETAIL_MIN - handles);
  const detailWidth = stacked ? 0 : clamp(s.detailWidth, DETAIL_MIN, vw - listWidth - THREAD_MIN - handles);
  // Until the user drags it, the Console takes a share of the window rather than a fixed size.
  const drawerHeight = clamp(s.drawerHeight ?? Math.round(vh * DRAWER_SHARE), DRAWER_MIN, vh - CHROME_H - PANES_MIN_H);
  return { stacked, listWidth, detailWidth, drawerHeight };
}

/** The list's CSS grid columns: fixed widths, the Name column also taking what is left. */
export function columnTemplate(columns: Record<ColumnId, Column>): string {
  return COLUMNS.filter((c) => !columns[c].hidden)
    .map((c) => (c === 'name' ? `minmax(${columns[c].width}px, 1fr)` : `${columns[c].width}px`))
    .join(' ');
}
