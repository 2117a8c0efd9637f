import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRequestStateCodec } from '@modelcontextprotocol/server';
import { SignJWT } from 'jose';
import { TOKEN_FORMATS, inspectToken, readToken } from '../../../worker/tokens/index.js';
import { AES_RIGHT, DEMO_KEY_TEXT, RIGHT, b64, b64url, deepArray, mintMacJsonText, mintSdkText } from './helpers.js';

const KEYS = [RIGHT, AES_RIGHT];
const isFormat = (f: string) => (TOKEN_FORMATS as readonly string[]).includes(f);

// Strings shaped like each format, so the properties reach deep into every decoder.
const part = fc.uint8Array({ maxLength: 64 }).map((b) => b64url(b));
const jsonPart = fc.jsonValue().map((v) => b64url(JSON.stringify(v) ?? 'null'));
const shaped = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.uint8Array().map((b) => b64(b)),
  fc.uint8Array().map((b) => b64url(b)),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
  fc.jsonValue().map((v) => b64(JSON.stringify(v) ?? '')),
  fc.tuple(jsonPart, part).map(([a, b]) => `v1.${a}.${b}`),
  fc.tuple(jsonPart, jsonPart, part).map(([a, b, c]) => `${a}.${b}.${c}`),
  fc.tuple(jsonPart, part, part, part, part).map((p) => p.join('.')),
  fc.tuple(jsonPart, fc.uint8Array({ minLength: 32, maxLength: 32 })).map(([a, m]) => `${a}.${b64url(m)}`),
  fc.tuple(fc.constantFrom('{"alg":"HS256"}', '{"alg":"none"}', '{"alg":"dir","enc":"A256GCM"}', '{"alg":7}'), part)
    .map(([h, p]) => `${b64url(h)}.${p}.${p}`),
);

describe('robustness', () => {
  it('inspectToken never throws and always answers one of the 7 formats', () => {
    fc.assert(
      fc.property(shaped, (token) => {
        const r = inspectToken(token);
        expect(isFormat(r.format)).toBe(true);
        expect(r.verified).toBeNull();
        expect(structuredClone(r)).toEqual(r);
      }),
      { numRuns: 2000 },
    );
  });

  it('readToken never rejects, answers one of the 7 formats, and agrees with inspectToken without keys', async () => {
    await fc.assert(
      fc.asyncProperty(shaped, async (token) => {
        const r = await readToken(token, KEYS);
        expect(isFormat(r.format)).toBe(true);
        expect(r.format).toBe(inspectToken(token).format);
        expect(r.verified).not.toBe(true);
        expect(await readToken(token, [])).toEqual(inspectToken(token));
      }),
      { numRuns: 500 },
    );
  });

  it('reads any JSON object or array as json, and its base64 as base64-json', () => {
    fc.assert(
      fc.property(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue())), (value) => {
        const text = JSON.stringify(value);
        expect(inspectToken(text)).toMatchObject({ format: 'json', payload: JSON.parse(text) });
        expect(inspectToken(b64(text))).toMatchObject({ format: 'base64-json', payload: JSON.parse(text) });
        expect(inspectToken(b64url(text))).toMatchObject({ format: 'base64-json', payload: JSON.parse(text) });
      }),
    );
  });

  it('verifies with keys that arrive as structured clones, as they do through the worker', async () => {
    const token = await createRequestStateCodec({ key: DEMO_KEY_TEXT }).mint({ a: 1 });
    for (let i = 0; i < 3; i++) expect((await readToken(token, structuredClone([RIGHT]))).verified).toBe(true);
  });

  it('survives non-TokenKey values in the key list', async () => {
    const codec = createRequestStateCodec({ key: DEMO_KEY_TEXT });
    const token = await codec.mint({ a: 1 });
    const junk = [null, {}, { bytes: 'x' }, { bytes: new Uint8Array(0), label: '' }, RIGHT] as never[];
    expect(await readToken(token, junk)).toMatchObject({ verified: true, keyIndex: 4 });
    expect(await readToken(token, null as never)).toMatchObject({ verified: null });
  });

  it('reads JSON nested 10k deep in every format and keeps the reading cloneable', async () => {
    // JSON.stringify itself overflows at this depth, so the tokens are built from text.
    const deep = deepArray(10_000);
    const tokens = [
      deep,
      b64(deep),
      await mintSdkText(`{"p":${deep},"exp":2000000000}`, RIGHT),
      await mintMacJsonText(deep, RIGHT),
      `${b64url('{"alg":"HS256"}')}.${b64url(deep)}.${b64url('x')}`,
      `${b64url(`{"alg":"HS256","x":${deep}}`)}.${b64url('{}')}.${b64url('x')}`,
    ];
    const formats = [];
    for (const t of tokens) {
      const r = await readToken(t, KEYS);
      formats.push(r.format);
      // Structured clone (postMessage, IndexedDB) and JSON.stringify must survive the reading.
      expect(structuredClone(r)).toEqual(r);
      expect(JSON.stringify(r)).toContain('[elided: nested deeper than 64 levels]');
    }
    expect(formats).toEqual(['json', 'base64-json', 'sdk-hmac-v1', 'mac-json', 'jws', 'jws']);
    expect((await readToken(tokens[2], [RIGHT])).verified).toBe(true);
    expect((await readToken(tokens[3], [RIGHT])).verified).toBe(true);
  });

  it('keeps payloads up to 64 levels deep intact', () => {
    const text = deepArray(64);
    expect(inspectToken(text).payload).toEqual(JSON.parse(text));
    expect(JSON.stringify(inspectToken(deepArray(65)).payload)).toContain('elided');
  });

  it('returns within a bound on 1 MB tokens of every shape', async () => {
    const big = 'x'.repeat(1 << 20);
    const bigJson = JSON.stringify({ blob: big, sub: 'a' });
    const codec = createRequestStateCodec({ key: DEMO_KEY_TEXT });
    const jws = await new SignJWT({ blob: big }).setProtectedHeader({ alg: 'HS256' }).sign(RIGHT.bytes);
    const tokens = [big, b64(big), bigJson, b64url(bigJson), await codec.mint({ blob: big }), jws, `v1.${b64url(big)}.`, '.'.repeat(1 << 20)];
    const start = performance.now();
    for (const t of tokens) {
      expect(isFormat(inspectToken(t).format)).toBe(true);
      await readToken(t, KEYS);
    }
    expect((await readToken(tokens[4], [RIGHT])).verified).toBe(true);
    expect((await readToken(jws, [RIGHT])).verified).toBe(true);
    // Generous: a backtracking regex or a quadratic loop would take minutes, not seconds.
    expect(performance.now() - start).toBeLessThan(10_000);
  });

  it('logs a micro-benchmark of 50k inspections and 5k verifications', async () => {
    const codec = createRequestStateCodec({ key: DEMO_KEY_TEXT });
    const tokens = await Promise.all(Array.from({ length: 100 }, (_, i) => codec.mint({ step: i, tool: 'x' })));
    let t = performance.now();
    for (let i = 0; i < 50_000; i++) inspectToken(tokens[i % 100]);
    const inspectMs = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < 5_000; i++) await readToken(tokens[i % 100], [RIGHT]);
    const readMs = performance.now() - t;
    console.log(`tokens bench: 50k inspectToken ${inspectMs.toFixed(0)} ms; 5k readToken ${readMs.toFixed(0)} ms`);
  });
});
