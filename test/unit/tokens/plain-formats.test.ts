import { describe, expect, it } from 'vitest';
import { inspectToken, readToken } from '../../../worker/tokens/index.js';
import { RIGHT, WRONG, b64, b64url, flipChar, mintMacJson } from './helpers.js';

const OPAQUE_NOTE = 'opaque handle: the state lives on the server (fine, and nothing to decode)';

describe('mac-json', () => {
  const payload = { tool: 'search', step: 2, expiresAt: '2026-08-01T12:00:00Z' };

  it('reads a base64url JSON + HMAC-SHA256 token as mac-json without a key', async () => {
    const r = inspectToken(await mintMacJson(payload, RIGHT));
    expect(r).toMatchObject({ format: 'mac-json', protected: true, verified: null, payload });
    expect(r.expiresAt).toBe('2026-08-01T12:00:00.000Z');
    expect(r.requestBound).toBe(true);
  });

  it('verifies a mac-json token minted with WebCrypto, with the right key only', async () => {
    const token = await mintMacJson(payload, RIGHT);
    expect(await readToken(token, [WRONG, RIGHT])).toMatchObject({ verified: true, keyIndex: 1 });
    const bad = await readToken(token, [WRONG]);
    expect(bad).toMatchObject({ verified: false, verifyError: 'MAC does not match the configured key' });
  });

  it('fails a mac-json token after a flip in its MAC', async () => {
    const token = await mintMacJson(payload, RIGHT);
    const r = await readToken(flipChar(token, token.indexOf('.') + 5), [RIGHT]);
    expect(r).toMatchObject({ format: 'mac-json', verified: false });
  });

  it('reads a JSON array body as mac-json too', async () => {
    expect(inspectToken(await mintMacJson([1, 2], RIGHT)).format).toBe('mac-json');
  });

  it('does not take a JSON body with a tag that is not 32 bytes for mac-json', () => {
    expect(inspectToken(`${b64url('{"a":1}')}.${b64url('short')}`).format).toBe('opaque');
  });
});

describe('base64-json', () => {
  it('decodes the spec example requestState to its JSON object', () => {
    const r = inspectToken('eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0');
    expect(r).toEqual({
      format: 'base64-json', verified: null, protected: false, payload: { location: 'New York' },
      expiresAt: null, issuedAt: null, requestBound: false, principalBound: false,
    });
  });

  it('decodes standard base64 with padding, + and /', () => {
    const json = JSON.stringify({ q: '???>>>~~~', n: 1 });
    const token = b64(json);
    expect(token).toMatch(/[+/]/);
    expect(token.endsWith('=')).toBe(true);
    expect(inspectToken(token)).toMatchObject({ format: 'base64-json', payload: JSON.parse(json) });
    expect(inspectToken(b64url(json))).toMatchObject({ format: 'base64-json', payload: JSON.parse(json) });
  });

  it('decodes base64 of a JSON array and of JSON with leading whitespace', () => {
    expect(inspectToken(b64('[1,"two"]'))).toMatchObject({ format: 'base64-json', payload: [1, 'two'] });
    expect(inspectToken(b64('\n {"a":1}'))).toMatchObject({ format: 'base64-json', payload: { a: 1 } });
  });

  it('reads unprotected claims from base64 JSON', () => {
    const r = inspectToken(b64url(JSON.stringify({ userId: 'u1', exp: 1_780_000_000_000 })));
    expect(r.principalBound).toBe(true);
    expect(r.expiresAt).toBe(new Date(1_780_000_000_000).toISOString());
  });

  it('does not decode base64 that mixes the two alphabets or is not JSON', () => {
    expect(inspectToken(b64url('{"a":"??>>"}').replace('_', '/') + '-').format).toBe('opaque');
    expect(inspectToken(b64('"a string"')).format).toBe('opaque');
    expect(inspectToken(b64('{not json')).format).toBe('opaque');
  });

  it('never verifies base64 JSON even with keys, since it carries no MAC', async () => {
    expect((await readToken('eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0', [RIGHT])).verified).toBeNull();
  });
});

describe('json', () => {
  it('reads a token that is itself a JSON object or array', () => {
    expect(inspectToken('{"step":1,"method":"tools/call"}')).toMatchObject({
      format: 'json', protected: false, payload: { step: 1, method: 'tools/call' }, requestBound: true,
    });
    expect(inspectToken('  [1,2,3] ')).toMatchObject({ format: 'json', payload: [1, 2, 3] });
  });

  it('reads JSON containing dots as json, not as a dotted token', () => {
    expect(inspectToken('{"v":"a.b.c.d.e"}').format).toBe('json');
  });

  it('does not read a JSON scalar or broken JSON as json', () => {
    for (const t of ['123', '"text"', 'true', '{"a":', '[1,']) expect(inspectToken(t).format).toBe('opaque');
  });
});

describe('opaque', () => {
  it('calls random handles opaque and says the state lives on the server', async () => {
    for (const t of ['3f2a9c1e-5b7d-4e0a-9f61-2c8b7a1d0e44', 'st_8xZ2kQ', 'abc.def', 'a.b.c.d.e', '0123456789abcdef']) {
      const r = await readToken(t, [RIGHT]);
      expect(r).toEqual({
        format: 'opaque', verified: null, protected: false, payload: null, expiresAt: null,
        issuedAt: null, requestBound: false, principalBound: false, note: OPAQUE_NOTE,
      });
    }
  });

  it('calls the empty string opaque with a note', () => {
    expect(inspectToken('')).toMatchObject({ format: 'opaque', note: 'empty token' });
  });
});
