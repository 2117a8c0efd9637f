// web/lib/pane-fit.ts: stored sizes fitted to the window.
import { describe, expect, it } from 'vitest';
import { DETAIL_MIN, DRAWER_MIN, fitPanes, LIST_MIN, PANES_MIN_H, STACK_BELOW, THREAD_MIN } from '../../../web/lib/pane-fit.ts';

describe('fitting panes to the window', () => {
  it('stacks the detail pane under the thread below the stacking width, and keeps the list at most half-ish of the window', () => {
    const f = fitPanes({ listWidth: 900, detailWidth: 460, drawerHeight: 380 }, 1024, 640);
    expect(f.stacked).toBe(true);
    expect(f.listWidth).toBeLessThanOrEqual(Math.round(1024 * 0.55));
    expect(fitPanes({ listWidth: 600, detailWidth: 460, drawerHeight: 380 }, STACK_BELOW, 900).stacked).toBe(false);
  });
  it('leaves the thread its minimum beside a list and detail pane stored on a bigger screen', () => {
    for (const vw of [1200, 1440, 1920, 2560]) {
      const f = fitPanes({ listWidth: 2000, detailWidth: 2000, drawerHeight: 380 }, vw, 900);
      expect(f.listWidth).toBeGreaterThanOrEqual(LIST_MIN);
      expect(f.detailWidth).toBeGreaterThanOrEqual(DETAIL_MIN);
      expect(vw - f.listWidth - f.detailWidth - 10).toBeGreaterThanOrEqual(THREAD_MIN);
    }
  });
  it('never opens the Console below its form, nor so tall that the panes above it vanish', () => {
    expect(fitPanes({ listWidth: 600, detailWidth: 460, drawerHeight: 220 }, 1440, 900).drawerHeight).toBe(DRAWER_MIN);
    const tall = fitPanes({ listWidth: 600, detailWidth: 460, drawerHeight: 5000 }, 1024, 640);
    expect(640 - 60 - tall.drawerHeight).toBeGreaterThanOrEqual(PANES_MIN_H);
    // Not resized yet: a share of the window, at least the form's height.
    expect(fitPanes({ listWidth: 600, detailWidth: 460, drawerHeight: null }, 1024, 640).drawerHeight).toBe(DRAWER_MIN);
    expect(fitPanes({ listWidth: 600, detailWidth: 460, drawerHeight: null }, 1920, 1080).drawerHeight).toBe(Math.round(1080 * 0.42));
  });
});
