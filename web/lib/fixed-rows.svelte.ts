// A virtualizer over rows of one fixed height in a component's own scroller (the
// conversation list, the Console's exchange table): it follows the component's row count and
// scroller as they change. Called while the component is created (it makes an effect).
import { createVirtualizer } from '@tanstack/svelte-virtual';
import { untrack } from 'svelte';
import { get } from 'svelte/store';

export interface FixedRowsOptions<S extends Element> {
  /** Row height in px. */
  row: number;
  /** Rows drawn beyond the view, either side. */
  overscan: number;
  /** What sits above the rows inside the scroller (a sticky header), in px. */
  margin: number;
  scroller: () => S | undefined;
  count: () => number;
}

export function fixedRows<S extends Element, R extends Element>(opts: FixedRowsOptions<S>) {
  const virtualizer = createVirtualizer<S, R>({
    count: 0,
    getScrollElement: () => opts.scroller() ?? null,
    estimateSize: () => opts.row,
    overscan: opts.overscan,
    scrollMargin: opts.margin,
  });
  // setOptions writes the store the template reads, so it must not be read reactively here.
  $effect(() => {
    const count = opts.count();
    const el = opts.scroller();
    untrack(() => get(virtualizer).setOptions({ count, getScrollElement: () => el ?? null }));
  });
  return virtualizer;
}
