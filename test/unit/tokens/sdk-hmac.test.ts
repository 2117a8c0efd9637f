import { describe, expect, it } from 'vitest';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { inspectToken, readToken, sdkBindTag } from '../../../worker/tokens/index.js';
import { DEMO_KEY_TEXT, RIGHT, WRONG, b64url, flipChar, fromB64url, key } from './helpers.js';

// mint() only hands ctx to the bind callback, which ignores it here.
const CTX = {} as ServerContext;
const BIND_VALUE = 'tools/call\u0000client-42';

function envelopeOf(token: string): { p?: unknown; exp: number; b?: string } {
  return JSON.parse(fromB64url(token.slice(3, token.lastIndexOf('.'))));
}

describe('sdk-hmac-v1 (createRequestStateCodec)', () => {
  const codec = createRequestStateCodec({ key: DEMO_KEY_TEXT, ttlSeconds: 300 });
  const bound = createRequestStateCodec({ key: DEMO_KEY_TEXT, bind: () => BIND_VALUE });

  it('reads a token minted by the SDK codec as sdk-hmac-v1 with its payload p', async () => {
    const token = await codec.mint({ step: 2, answers: ['yes'] });
    const r = inspectToken(token);
    expect(r.format).toBe('sdk-hmac-v1');
    expect(r.protected).toBe(true);
    expect(r.verified).toBeNull();
    expect(r.payload).toEqual({ step: 2, answers: ['yes'] });
    expect(r.bindTag).toBeUndefined();
  });

  it('verifies an SDK token with the right key and reports which key did it', async () => {
    const token = await codec.mint({ step: 1 });
    const r = await readToken(token, [WRONG, RIGHT]);
    expect(r.verified).toBe(true);
    expect(r.keyIndex).toBe(1);
    expect(r.verifyError).toBeUndefined();
    await expect(codec.verify(token, CTX)).resolves.toEqual({ step: 1 });
  });

  it('fails an SDK token with a wrong key and says no configured key matches', async () => {
    const token = await codec.mint({ step: 1 });
    const one = await readToken(token, [WRONG]);
    expect(one.verified).toBe(false);
    expect(one.verifyError).toBe('MAC does not match the configured key');
    const two = await readToken(token, [WRONG, key('yet-another-key-yet-another-key-yet-another')]);
    expect(two.verifyError).toBe('MAC does not match any of the 2 configured keys');
    expect(two.keyIndex).toBeUndefined();
  });

  it('fails an SDK token whose payload JSON had one byte changed', async () => {
    const token = await codec.mint({ step: 7 });
    const body = fromB64url(token.slice(3, token.lastIndexOf('.'))).replace('"step":7', '"step":8');
    const forged = `v1.${b64url(body)}${token.slice(token.lastIndexOf('.'))}`;
    const r = await readToken(forged, [RIGHT]);
    expect(r.format).toBe('sdk-hmac-v1');
    expect(r.payload).toEqual({ step: 8 });
    expect(r.verified).toBe(false);
    await expect(codec.verify(forged, CTX)).rejects.toThrow('mac');
  });

  it('never verifies an SDK token after a flip at any single position', async () => {
    const token = await codec.mint({ step: 3, tool: 'book_flight' });
    for (let i = 0; i < token.length; i++) {
      const r = await readToken(flipChar(token, i), [RIGHT]);
      expect(r.verified, `flip at ${i}`).not.toBe(true);
      // A flip in the MAC keeps the token readable, so it must be a plain MAC failure.
      if (i > token.lastIndexOf('.')) expect(r).toMatchObject({ format: 'sdk-hmac-v1', verified: false });
    }
  });

  it('takes expiresAt from the codec exp (unix seconds)', async () => {
    const before = Math.floor(Date.now() / 1000);
    const token = await codec.mint('payload as a string');
    const { exp } = envelopeOf(token);
    expect(exp - before).toBeGreaterThanOrEqual(299);
    expect(exp - before).toBeLessThanOrEqual(301);
    const r = inspectToken(token);
    expect(r.expiresAt).toBe(new Date(exp * 1000).toISOString());
    expect(r.issuedAt).toBeNull();
    expect(r.payload).toBe('payload as a string');
  });

  it('reports the bind tag, which equals sdkBindTag of the binding value', async () => {
    const token = await bound.mint({ step: 1 }, CTX);
    const r = await readToken(token, [RIGHT]);
    expect(r.verified).toBe(true);
    expect(r.bindTag).toBe(envelopeOf(token).b);
    expect(r.bindTag).toBe(await sdkBindTag(RIGHT, BIND_VALUE));
    expect(r.bindTag).not.toBe(await sdkBindTag(RIGHT, 'tools/call\u0000someone-else'));
    expect(r.bindTag).toHaveLength(22); // 16 bytes, unpadded base64url
  });

  it('counts a bind tag as request binding even when p names nothing', async () => {
    const r = inspectToken(await bound.mint({ n: 1 }, CTX));
    expect(r.requestBound).toBe(true);
    expect(r.principalBound).toBe(false);
    expect(r.note).toMatch(/bind tag/);
  });

  it('reads binding claims inside p', async () => {
    const r = inspectToken(await codec.mint({ method: 'tools/call', sub: 'alice' }));
    expect(r.requestBound).toBe(true);
    expect(r.principalBound).toBe(true);
  });

  it('verifies SDK tokens minted with a binary key given as hex and as base64', async () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
    const binary = createRequestStateCodec({ key: bytes });
    const token = await binary.mint({ ok: true });
    const hex = key('hex:' + Buffer.from(bytes).toString('hex'));
    const std = key('base64:' + Buffer.from(bytes).toString('base64'));
    const url = key('base64:' + Buffer.from(bytes).toString('base64url'));
    for (const k of [hex, std, url]) expect((await readToken(token, [k])).verified).toBe(true);
  });

  it('reads an SDK token minted with an undefined payload as payload null', async () => {
    const r = inspectToken(await codec.mint(undefined));
    expect(r.format).toBe('sdk-hmac-v1');
    expect(r.payload).toBeNull();
  });

  it('notes a v1 token without a numeric exp, which the SDK would reject', () => {
    const r = inspectToken(`v1.${b64url('{"p":1}')}.${'A'.repeat(43)}`);
    expect(r.format).toBe('sdk-hmac-v1');
    expect(r.note).toMatch(/exp is missing/);
  });

  it('leaves a v1-prefixed token whose body is not an envelope opaque, with a hint', () => {
    const r = inspectToken('v1.not-an-envelope.abc');
    expect(r.format).toBe('opaque');
    expect(r.note).toMatch(/^opaque handle: .*starts like an SDK v1 token/);
  });

  it('keeps a tampered SDK token whose body no longer decodes as sdk-hmac-v1, failing with a key', async () => {
    const token = await codec.mint({ step: 1, answers: ['a long enough payload to flip inside'] });
    const dot = token.lastIndexOf('.');
    // Replace a run of body characters so the base64 no longer decodes to the JSON envelope.
    const tampered = token.slice(0, 8) + '!!!!' + token.slice(12, dot) + token.slice(dot);
    const seen = inspectToken(tampered);
    expect(seen.format).toBe('sdk-hmac-v1');
    expect(seen.payload).toBeNull();
    expect(seen.note).toMatch(/tampered/);
    const r = await readToken(tampered, [RIGHT]);
    expect(r.verified).toBe(false);
  });
});
