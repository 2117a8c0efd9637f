// sameCanonical (the rules' allocation-free comparison of arguments) agrees with comparing
// canonical() texts, on any JSON: key order, the depth cap, numbers JSON writes alike.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical, sameCanonical } from '../../../worker/lint/rules/support.js';

/** `v` with object keys in reverse order (the same value, another key order). */
function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).reverse().map((k) => [k, reordered((v as Record<string, unknown>)[k])]));
  return v;
}

const nest = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { a: [nest(depth - 1, leaf)] });

describe('sameCanonical', () => {
  it('agrees with canonical() on arbitrary pairs of JSON values (property)', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 4 }), (a, b) => {
      expect(sameCanonical(a, b)).toBe(canonical(a) === canonical(b));
      expect(sameCanonical(a, reordered(a))).toBe(true);
      expect(sameCanonical(a, JSON.parse(JSON.stringify(a)))).toBe(true);
    }), { numRuns: 500 });
  });

  it('agrees with canonical() on the edges: depth cap, -0, non-finite numbers, the elision marker, undefined', () => {
    const cases: [unknown, unknown][] = [
      [nest(40, 1), nest(40, 2)], [nest(40, 1), nest(40, '…')], [nest(32, 1), nest(32, 2)], [nest(33, [1]), nest(33, [2, 3])],
      [0, -0], [Infinity, null], [NaN, -Infinity], [1, '1'], [{ a: undefined }, { a: null }], [{ a: undefined }, {}],
      [[1, 2], { 0: 1, 1: 2 }], [{}, []], ['…', { x: 1 }], [{ a: 1, b: 2 }, { b: 2, a: 1 }], [{ a: 1 }, { a: 1, b: 2 }],
    ];
    for (const [a, b] of cases) expect(sameCanonical(a, b), `${canonical(a)} vs ${canonical(b)}`).toBe(canonical(a) === canonical(b));
  });
});
