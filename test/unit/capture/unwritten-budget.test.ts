// The feed's memory bound (worker/capture/unwritten-budget.ts): bytes count as held until
// their writes settle, either way, and a wait for room ends once they fall under the bound.
import { describe, expect, it } from 'vitest';
import { UnwrittenBudget } from '../../../worker/capture/unwritten-budget.js';

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (e: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

describe('unwritten bytes budget', () => {
  it('stays open under its bound and closes once the bytes held reach it', () => {
    const b = new UnwrittenBudget(100);
    b.hold(60, new Promise(() => undefined));
    expect(b.open).toBe(true);
    b.hold(40, new Promise(() => undefined));
    expect(b.bytes).toBe(100);
    expect(b.open).toBe(false);
  });

  it('waits for room until enough writes settled, a refused write counting as settled', async () => {
    const b = new UnwrittenBudget(100);
    const first = deferred();
    const second = deferred();
    b.hold(80, first.promise);
    b.hold(80, second.promise);
    let roomy = false;
    const room = b.room().then(() => { roomy = true; });
    first.reject(new Error('QuotaExceededError'));
    await first.promise.catch(() => undefined);
    await Promise.resolve();
    // 80 still held: under the bound of 100, so the wait is over.
    await room;
    expect(roomy).toBe(true);
    expect(b.bytes).toBe(80);
    second.resolve();
    await second.promise;
    await Promise.resolve();
    expect(b.bytes).toBe(0);
  });

  it('keeps a waiter waiting while the bytes still held are over the bound', async () => {
    const b = new UnwrittenBudget(100);
    const a = deferred();
    b.hold(150, a.promise);
    b.hold(150, new Promise(() => undefined));
    let roomy = false;
    void b.room().then(() => { roomy = true; });
    a.resolve();
    await new Promise((r) => setTimeout(r, 5));
    expect(b.bytes).toBe(150);
    expect(roomy).toBe(false);
  });

  it('refuses a bound that is not a positive number of bytes, saying what it got', () => {
    expect(() => new UnwrittenBudget(0)).toThrow(/positive number of bytes, got 0/);
    expect(() => new UnwrittenBudget(Number.NaN)).toThrow(/got NaN/);
  });
});
