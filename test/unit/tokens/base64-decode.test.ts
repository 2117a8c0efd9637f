// decodeBase64 (four characters at a time) decodes exactly as the plain bit-by-bit decoder
// it replaced, on any text: both alphabets, padding, bad characters, impossible lengths.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, type B64Alphabet } from '../../../worker/tokens/base64.js';

const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const value = (c: number): [number, number] => {
  const i = CHARS.indexOf(String.fromCharCode(c));
  if (i >= 0) return [i, 0];
  return c === 43 ? [62, 2] : c === 47 ? [63, 2] : c === 45 ? [62, 1] : c === 95 ? [63, 1] : [-1, 0];
};

/** The decoder as it was: one character at a time. */
function reference(s: string, alphabet: B64Alphabet, start = 0, end = s.length): Uint8Array | null {
  let stop = end;
  while (stop > start && s.charCodeAt(stop - 1) === 61) stop--;
  const pad = end - stop;
  const n = stop - start;
  if (pad > 2 || n % 4 === 1 || (pad > 0 && (n + pad) % 4 !== 0)) return null;
  let seen = alphabet === 'url' ? 1 : alphabet === 'std' ? 2 : 0;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = start; i < stop; i++) {
    const [v, flag] = value(s.charCodeAt(i));
    if (v < 0) return null;
    seen |= flag;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return seen === 3 ? null : Uint8Array.from(out);
}

const text = fc.string({ unit: fc.constantFrom(...'AZaz09+/-_=.é\u0000'.split(''), ...CHARS.split('')), maxLength: 40 });

describe('decodeBase64', () => {
  it('agrees with the bit-by-bit decoder on any text, alphabet and range (property)', () => {
    fc.assert(fc.property(text, fc.constantFrom<B64Alphabet>('url', 'std', 'either'), fc.nat(8), fc.nat(8), (s, alphabet, a, b) => {
      const start = Math.min(a, s.length);
      const end = Math.max(start, s.length - b);
      expect(decodeBase64(s, alphabet, start, end)).toEqual(reference(s, alphabet, start, end));
    }), { numRuns: 2000 });
  });

  it('decodes what Buffer encodes, in both alphabets', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      const b = Buffer.from(bytes);
      expect(decodeBase64(b.toString('base64url'), 'url')).toEqual(new Uint8Array(bytes));
      expect(decodeBase64(b.toString('base64'), 'std')).toEqual(new Uint8Array(bytes));
    }), { numRuns: 500 });
  });
});
