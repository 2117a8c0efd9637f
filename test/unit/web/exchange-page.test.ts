// web/lib/exchange-page.ts: a re-read page of raw exchanges merged into the page's copy, so
// unchanged rows keep their objects (the keyed table re-binds only what changed).
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '../../../worker/facade.ts';
import { keepUnchanged, sameSummary } from '../../../web/lib/exchange-page.ts';

const row = (id: string, over: Partial<ExchangeSummary> = {}): ExchangeSummary => ({ id, seq: Number(id.slice(1)), startedAt: 0, httpMethod: 'POST', url: '/mcp', method: 'tools/call', name: null, status: 200, state: 'complete', events: null, refused: null, ...over });
const copies = (xs: ExchangeSummary[]) => xs.map((x) => ({ ...x }));

describe('keeping unchanged summaries', () => {
  it('gives back the old page itself when the fresh one shows the same rows in the same order', () => {
    const old = [row('x1'), row('x2')];
    expect(keepUnchanged(old, copies(old))).toBe(old);
  });

  it('keeps the old objects of unchanged rows when the newest page moves on by one', () => {
    const old = [row('x1'), row('x2'), row('x3')];
    const fresh = [...copies(old.slice(1)), row('x4')];
    const got = keepUnchanged(old, fresh);
    expect(got).not.toBe(old);
    expect(got.map((x) => x.id)).toEqual(['x2', 'x3', 'x4']);
    expect(got[0]).toBe(old[1]);
    expect(got[1]).toBe(old[2]);
    expect(got[2]).toBe(fresh[2]);
  });

  it('takes the fresh object of a row whose state, status or event count changed', () => {
    const old = [row('x1', { state: 'pending', status: null }), row('x2', { events: 1 }), row('x3')];
    const fresh = [row('x1'), row('x2', { events: 2 }), row('x3')];
    const got = keepUnchanged(old, fresh);
    expect(got[0]).toBe(fresh[0]);
    expect(got[1]).toBe(fresh[1]);
    expect(got[2]).toBe(old[2]);
  });

  it('follows the fresh order, and a page of the same length in another order is a change', () => {
    const old = [row('x1'), row('x2')];
    const got = keepUnchanged(old, copies([old[1]!, old[0]!]));
    expect(got).not.toBe(old);
    expect(got).toEqual([old[1], old[0]]);
    expect(got[0]).toBe(old[1]);
  });

  it('an empty fresh page empties the copy; an empty copy takes the fresh page', () => {
    expect(keepUnchanged([row('x1')], [])).toEqual([]);
    const fresh = [row('x1')];
    expect(keepUnchanged([], fresh)).toEqual(fresh);
    expect(keepUnchanged([], fresh)[0]).toBe(fresh[0]);
  });

  it('compares every field by value, a refusal reason included', () => {
    expect(sameSummary(row('x1'), row('x1'))).toBe(true);
    expect(sameSummary(row('x1'), row('x1', { refused: 'not watched' }))).toBe(false);
    expect(sameSummary(row('x1', { name: 'echo' }), row('x1', { name: 'echo2' }))).toBe(false);
  });
});
