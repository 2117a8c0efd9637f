import { describe, expect, it } from 'vitest';
import { parseKey } from '../../../worker/tokens/index.js';

const SECRET = 'correct horse battery staple, 32+ bytes';
const bytesOf = (text: string) => {
  const r = parseKey(text);
  if (!r.ok) throw new Error(r.error);
  return Array.from(r.key.bytes);
};

describe('parseKey', () => {
  it('takes bare text as UTF-8 bytes and labels it without revealing it', () => {
    const r = parseKey(SECRET);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Array.from(r.key.bytes)).toEqual(Array.from(Buffer.from(SECRET)));
    expect(r.key.label).toBe(`utf-8 key (${Buffer.byteLength(SECRET)} bytes)`);
    expect(r.warning).toBeUndefined();
  });

  it('reads the same key from hex, base64 and base64url', () => {
    const raw = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i * 7));
    const expected = Array.from(raw);
    expect(raw.toString('base64')).toMatch(/[+/]/);
    expect(bytesOf('hex:' + raw.toString('hex'))).toEqual(expected);
    expect(bytesOf('HEX:' + raw.toString('hex').toUpperCase())).toEqual(expected);
    expect(bytesOf('hex:' + raw.toString('hex').match(/../g)!.join(':'))).toEqual(expected);
    expect(bytesOf('base64:' + raw.toString('base64'))).toEqual(expected);
    expect(bytesOf('base64:' + raw.toString('base64url'))).toEqual(expected);
    expect(bytesOf('base64url:' + raw.toString('base64url'))).toEqual(expected);
    const label = parseKey('hex:' + raw.toString('hex'));
    expect(label.ok && label.key.label).toBe('hex key (32 bytes)');
  });

  it('keeps surrounding whitespace in a text key and flags it in the label', () => {
    const r = parseKey(SECRET + '\n');
    expect(r.ok && r.key.label).toMatch(/ends with whitespace/);
    expect(r.ok && r.key.bytes.length).toBe(Buffer.byteLength(SECRET) + 1);
  });

  it('lets utf8: force text for a key that starts with hex:', () => {
    expect(bytesOf('utf8:hex:zz')).toEqual(Array.from(Buffer.from('hex:zz')));
  });

  it('warns, but accepts, keys shorter than the SDK minimum of 32 bytes', () => {
    const r = parseKey('short');
    expect(r.ok).toBe(true);
    expect(r.ok && r.warning).toMatch(/at least 32/);
  });

  it('gives a clear error for bad keys that never contains the key text', () => {
    const cases: [string, RegExp][] = [
      ['hex:s3cr3tzz', /not a hex digit at position/],
      ['hex:abc', /odd number of digits/],
      ['hex:', /empty/],
      ['base64:s3cr3t!!', /not valid base64/],
      ['base64:ab+c_d', /not valid base64/],
      ['base64:', /empty/],
      ['', /empty/],
    ];
    for (const [text, why] of cases) {
      const r = parseKey(text);
      expect(r.ok, text).toBe(false);
      if (r.ok) continue;
      expect(r.error).toMatch(why);
      const body = text.slice(text.indexOf(':') + 1);
      if (body.length > 2) expect(r.error).not.toContain(body);
      expect(r.error).not.toContain('s3cr3t');
    }
  });

  it('rejects a non-string key without throwing', () => {
    expect(parseKey(42 as unknown as string).ok).toBe(false);
  });
});
