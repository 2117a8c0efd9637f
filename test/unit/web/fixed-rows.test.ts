// The rows in view of a fixed-height list (web/lib/fixed-rows.svelte.ts): the range drawn
// for a scroll offset and height, and the offset that brings a row into view below a
// sticky header.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowRange, scrollFor } from '../../../web/lib/fixed-rows.svelte.js';

const o = { row: 22, margin: 22, overscan: 2 };

describe('the rows in view', () => {
  it('draws the rows the view shows, and the overscan either side', () => {
    // The view shows 0..220 px of the scroller: the header (22 px), then rows 0..8 (row 8 ends at 220).
    expect(rowRange(1000, 0, 220, o)).toEqual({ first: 0, last: 10 });
    // Scrolled 440 px: rows 19 (under the sticky header) .. 28 are in view.
    expect(rowRange(1000, 440, 220, o)).toEqual({ first: 17, last: 30 });
    expect(rowRange(20, 440, 220, o)).toEqual({ first: 17, last: 19 });
    expect(rowRange(0, 0, 220, o)).toEqual({ first: 0, last: -1 });
  });

  it('covers every row any part of which is in view, for any offset, height and count', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 0, max: 30 }), (count, top, height, overscan) => {
      const opts = { ...o, overscan };
      const { first, last } = rowRange(count, top, height, opts);
      for (let i = Math.max(0, first - 3); i < Math.min(count, last + 4); i++) {
        const rowTop = opts.margin + i * opts.row; // in the scroller's content
        const seen = rowTop < top + height && rowTop + opts.row > top;
        if (seen) expect(i >= first && i <= last).toBe(true);
      }
      if (count > 0) expect(first).toBeGreaterThanOrEqual(0);
      expect(last).toBeLessThan(Math.max(count, 1));
    }));
  });

  it('scrolls a row into view below the header only when it is not whole in view', () => {
    // 220 px high: rows 0..8 show whole at offset 0 (8 ends at 22 + 9 × 22 = 220).
    expect(scrollFor(8, 0, 220, o)).toBeNull();
    expect(scrollFor(9, 0, 220, o)).toBe(22); // its bottom at the view's bottom
    expect(scrollFor(3, 200, 220, o)).toBe(66); // above: at the top, below the header
    expect(scrollFor(3, 66, 220, o)).toBeNull();
  });

  it('leaves the row whole in view after it scrolls, wherever it was', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 60, max: 2000 }), (index, top, height) => {
      const to = scrollFor(index, top, height, o) ?? top;
      const rowTop = o.margin + index * o.row - to; // in the view
      expect(rowTop).toBeGreaterThanOrEqual(o.margin);
      expect(rowTop + o.row).toBeLessThanOrEqual(height);
      // Shown already: nothing moves.
      expect(scrollFor(index, to, height, o)).toBeNull();
    }));
  });
});
