// canonicalJson keys equal values to equal strings (threading's argument and identity
// comparisons, the mock's match keys). It was rewritten for speed; this checks it against
// the plain definition (keys sorted at every level, undefined as null, depth capped) on
// values of every JSON shape, so the faster form can never key anything differently.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../worker/thread/round.js';

function reference(v: unknown, depth = 0): string {
  if (depth > 64) return '"…"';
  if (Array.isArray(v)) return '[' + v.map((x) => reference(x, depth + 1)).join(',') + ']';
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return '{' + Object.keys(o).sort().map((k) => JSON.stringify(k) + ':' + reference(o[k], depth + 1)).join(',') + '}';
  }
  return JSON.stringify(v) ?? 'null';
}

/** A deterministic random JSON-ish value (mulberry32). */
function values(seed: number, count: number): unknown[] {
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const keys = ['b', 'a', 'z', '10', '2', 'é', 'A', '', 'key"quote', '\u2028'];
  const make = (d: number): unknown => {
    const r = rand();
    if (d > 3 || r < 0.3) return [null, true, false, 0, -1.5, 1e21, 'text', '"q"\n', undefined][Math.floor(rand() * 9)];
    if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => make(d + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(rand() * 5); i > 0; i--) o[keys[Math.floor(rand() * keys.length)]] = make(d + 1);
    return o;
  };
  return Array.from({ length: count }, () => make(0));
}

describe('canonicalJson', () => {
  it('gives what the plain definition gives, on 2,000 random values', () => {
    for (const v of values(7, 2000)) expect(canonicalJson(v)).toBe(reference(v));
  });

  it('sorts keys at every level and caps the depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    expect(canonicalJson(deep)).toBe(reference(deep));
    expect(canonicalJson(deep)).toContain('"…"');
  });
});
