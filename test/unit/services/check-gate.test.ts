// When checks may run (worker/services/check-gate.ts): not while a large batch is read, and
// not until what it laid in is listed; then once, when the last overlapping reading is done.
import { describe, expect, it } from 'vitest';
import { CheckGate, pageHasRead } from '../../../worker/services/check-gate.js';

function gate() {
  const listings: (() => void)[] = [];
  let resumed = 0;
  const g = new CheckGate({
    listed: () => new Promise<void>((r) => listings.push(r)),
    resume: () => void resumed++,
  });
  return { g, listings, resumed: () => resumed };
}

const turn = () => new Promise((r) => setTimeout(r, 0));

describe('the check gate', () => {
  it('stays shut after a reading ends until what it read is listed, then opens once', async () => {
    const { g, listings, resumed } = gate();
    expect(g.open).toBe(true);
    const done = g.reading();
    expect(g.open).toBe(false);
    done();
    done(); // reported twice: counted once
    await turn();
    expect(g.open).toBe(false);
    expect(listings).toHaveLength(1);
    listings[0]!();
    await turn();
    expect(g.open).toBe(true);
    expect(resumed()).toBe(1);
  });

  it('opens only when the last of overlapping readings is listed', async () => {
    const { g, listings, resumed } = gate();
    const a = g.reading();
    const b = g.reading();
    a();
    listings[0]!();
    await turn();
    expect(g.open).toBe(false);
    expect(resumed()).toBe(0);
    b();
    listings[1]!();
    await turn();
    expect(g.open).toBe(true);
    expect(resumed()).toBe(1);
  });

  it('opens even when listing fails', async () => {
    let resumed = 0;
    const g = new CheckGate({ listed: async () => { throw new Error('the page went away'); }, resume: () => void resumed++ });
    g.reading()();
    await turn();
    await turn();
    expect(g.open).toBe(true);
    expect(resumed).toBe(1);
  });
});

describe("waiting for the page's read", () => {
  it('waits until a view was read after the page was told, and no longer', async () => {
    let read = 0;
    const told = 100;
    let settled = false;
    const waiting = pageHasRead({ listening: () => true, told: () => told, read: () => read }, 10_000).then(() => { settled = true; });
    await new Promise((r) => setTimeout(r, 40));
    expect(settled).toBe(false);
    read = 101;
    await waiting;
    expect(settled).toBe(true);
  });

  it('gives up after its bound (a page busy drawing, or reading another session)', async () => {
    const t0 = Date.now();
    await pageHasRead({ listening: () => true, told: () => 100, read: () => 0 }, 50);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
  });

  it('does not wait when no page listens', async () => {
    let asked = 0;
    await pageHasRead({ listening: () => false, told: () => 100, read: () => { asked++; return 0; } }, 10_000);
    expect(asked).toBe(0);
  });
});
