import { describe, expect, it } from 'vitest';
import { shiftInto } from '../../../web/lib/in-viewport.ts';

describe('keeping a pop-up inside the window', () => {
  it('shifts a menu that runs off the right edge back in, by just enough', () => {
    expect(shiftInto(721, 1222, 1024)).toBe(-(1222 - 1020));
  });

  it('never shifts a menu past the left edge: one wider than the window keeps its start in view', () => {
    expect(shiftInto(100, 1300, 1024)).toBe(-96);
  });

  it('moves a menu that starts left of the window to the right, and leaves one inside alone', () => {
    expect(shiftInto(-30, 200, 1024)).toBe(34);
    expect(shiftInto(10, 500, 1024)).toBe(0);
  });
});
