// The page's reads go before check slices (worker/services/read-first.ts): after a notice
// that records changed, a slice waits for the page's read, up to a bound; checks' progress
// notices, a read already made and no page listening hold nothing back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReadFirst } from '../../../worker/services/read-first.js';

describe('the page reads before the next check slice', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  function setup() {
    const page = { listening: true, changed: 0 };
    const reads = new ReadFirst({ listening: () => page.listening, changed: () => page.changed, waitMs: 100 });
    const tell = () => { page.changed = Date.now(); };
    return { page, reads, tell };
  }

  it('waits for the read of a change the page was told of, and goes on at that read', async () => {
    const { reads, tell } = setup();
    expect(reads.pending()).toBeNull(); // never told
    vi.advanceTimersByTime(5);
    tell();
    const wait = reads.pending();
    expect(wait).not.toBeNull();
    let over = false;
    void wait!.then(() => { over = true; });
    await vi.advanceTimersByTimeAsync(40);
    expect(over).toBe(false);
    reads.read();
    // Not in this task: the read's own answer is posted first.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(over).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(over).toBe(true);
    // Read since: nothing more to wait for, until the next change.
    expect(reads.pending()).toBeNull();
    vi.advanceTimersByTime(3);
    tell();
    expect(reads.pending()).not.toBeNull();
  });

  it('waits no longer than the bound from the notice, and not at all past it', async () => {
    const { reads, tell } = setup();
    tell();
    await vi.advanceTimersByTimeAsync(30);
    let over = false;
    void reads.pending()!.then(() => { over = true; });
    await vi.advanceTimersByTimeAsync(69);
    expect(over).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(over).toBe(true);
    expect(reads.pending()).toBeNull();
  });

  it('holds nothing back while no page listens', () => {
    const { page, reads, tell } = setup();
    page.listening = false;
    tell();
    expect(reads.pending()).toBeNull();
  });
});
