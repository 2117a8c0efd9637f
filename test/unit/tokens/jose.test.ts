import { describe, expect, it } from 'vitest';
import { CompactEncrypt, SignJWT, generateKeyPair } from 'jose';
import { inspectToken, readToken } from '../../../worker/tokens/index.js';
import { AES_RIGHT, AES_WRONG, RIGHT, WRONG, b64url, flipChar } from './helpers.js';

const CLAIMS = { sub: 'alice', tool: 'book_flight', iat: 1_780_000_000, exp: 1_780_000_600 };

function signed(alg: 'HS256' | 'HS384' | 'HS512', claims: Record<string, unknown> = CLAIMS): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(RIGHT.bytes);
}

describe('jws', () => {
  for (const alg of ['HS256', 'HS384', 'HS512'] as const) {
    it(`verifies a JWS signed with ${alg} and shows its header and claims`, async () => {
      const token = await signed(alg);
      const r = await readToken(token, [WRONG, RIGHT]);
      expect(r).toMatchObject({ format: 'jws', protected: true, verified: true, keyIndex: 1 });
      expect(r.header).toEqual({ alg, typ: 'JWT' });
      expect(r.payload).toEqual(CLAIMS);
      expect(r.issuedAt).toBe(new Date(CLAIMS.iat * 1000).toISOString());
      expect(r.expiresAt).toBe(new Date(CLAIMS.exp * 1000).toISOString());
      expect(r.requestBound).toBe(true);
      expect(r.principalBound).toBe(true);
    });

    it(`fails a ${alg} JWS whose claims were swapped under the old signature`, async () => {
      const [h, , s] = (await signed(alg)).split('.');
      const forged = `${h}.${b64url(JSON.stringify({ ...CLAIMS, sub: 'mallory' }))}.${s}`;
      const r = await readToken(forged, [RIGHT]);
      expect(r).toMatchObject({ format: 'jws', verified: false });
      expect(r.verifyError).toBe(`${alg} signature does not match the configured key`);
      expect(r.payload).toMatchObject({ sub: 'mallory' });
    });

    it(`fails a ${alg} JWS with a flipped signature character or a wrong key`, async () => {
      const token = await signed(alg);
      const r = await readToken(flipChar(token, token.lastIndexOf('.') + 3), [RIGHT]);
      expect(r.verified).toBe(false);
      expect((await readToken(token, [WRONG])).verified).toBe(false);
    });
  }

  it('reads a JWS without keys as protected but unverified', async () => {
    const r = inspectToken(await signed('HS256'));
    expect(r).toMatchObject({ format: 'jws', protected: true, verified: null });
  });

  it('never verifies alg none, in any spelling, and says so when keys are given', async () => {
    for (const alg of ['none', 'None', 'NONE']) {
      const token = `${b64url(JSON.stringify({ alg }))}.${b64url(JSON.stringify({ sub: 'x' }))}.`;
      const bare = inspectToken(token);
      expect(bare).toMatchObject({ format: 'jws', protected: false, verified: null });
      expect(bare.note).toMatch(/alg none/);
      const r = await readToken(token, [RIGHT]);
      expect(r.verified).toBe(false);
      expect(r.verifyError).toBe('alg none is never accepted');
    }
  });

  it('does not verify an alg none token that carries a valid-looking HS256 signature', async () => {
    const [, p, s] = (await signed('HS256')).split('.');
    const token = `${b64url('{"alg":"none"}')}.${p}.${s}`;
    expect((await readToken(token, [RIGHT])).verified).toBe(false);
  });

  it('leaves an ES256 JWS unverified with a note that a public key is needed', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT({ sub: 'bob' }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
    const r = await readToken(token, [RIGHT]);
    expect(r).toMatchObject({ format: 'jws', protected: true, verified: null, principalBound: true });
    expect(r.note).toMatch(/public key/);
  });

  it('shows a JWS with a non-JSON payload as text', async () => {
    const token = `${b64url('{"alg":"HS256"}')}.${b64url('just text')}.${b64url('sig')}`;
    const r = inspectToken(token);
    expect(r).toMatchObject({ format: 'jws', payload: 'just text' });
  });

  it('reports why jose rejects a malformed HS256 JWS instead of blaming the key', async () => {
    const [, p, sig] = (await signed('HS256')).split('.');
    const token = `${b64url('{"alg":"HS256","crit":["x-unknown"],"x-unknown":1}')}.${p}.${sig}`;
    const r = await readToken(token, [RIGHT]);
    expect(r.verified).toBe(false);
    expect(r.verifyError).toMatch(/^jose rejected the JWS: /);
  });

  it('does not take three dotted parts without an alg header for a JWS', () => {
    expect(inspectToken(`${b64url('{"typ":"JWT"}')}.${b64url('{}')}.x`).format).toBe('opaque');
    expect(inspectToken('abc.def.ghi').format).toBe('opaque');
  });
});

describe('jwe', () => {
  const secret = { method: 'tools/call', user_id: 'u-9', iat: 1_780_000_000 };
  const encrypt = (plain: string, k = AES_RIGHT.bytes) =>
    new CompactEncrypt(new TextEncoder().encode(plain)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(k);

  it('shows the protected header of a JWE and notes it is encrypted when no key is given', async () => {
    const r = inspectToken(await encrypt(JSON.stringify(secret)));
    expect(r).toMatchObject({ format: 'jwe', protected: true, verified: null, payload: null });
    expect(r.header).toEqual({ alg: 'dir', enc: 'A256GCM' });
    expect(r.note).toMatch(/encrypted/);
  });

  it('decrypts a dir/A256GCM JWE with the right key and reads its claims', async () => {
    const r = await readToken(await encrypt(JSON.stringify(secret)), [RIGHT, AES_WRONG, AES_RIGHT]);
    expect(r).toMatchObject({ format: 'jwe', verified: true, keyIndex: 2, payload: secret });
    expect(r.requestBound).toBe(true);
    expect(r.principalBound).toBe(true);
    expect(r.issuedAt).toBe(new Date(secret.iat * 1000).toISOString());
  });

  it('decrypts a JWE whose plaintext is not JSON to text', async () => {
    const r = await readToken(await encrypt('cursor=42'), [AES_RIGHT]);
    expect(r).toMatchObject({ verified: true, payload: 'cursor=42' });
  });

  it('does not decrypt a JWE with a wrong 32-byte key', async () => {
    const r = await readToken(await encrypt(JSON.stringify(secret)), [AES_WRONG]);
    expect(r).toMatchObject({ format: 'jwe', verified: false, payload: null });
    expect(r.verifyError).toBe('AEAD tag does not check with the configured key');
  });

  it('fails a JWE whose tag or ciphertext was flipped', async () => {
    const token = await encrypt(JSON.stringify(secret));
    const dots = [...token].flatMap((c, i) => (c === '.' ? [i] : []));
    for (const at of [dots[3] + 1, dots[3] + 2, token.length - 3]) {
      expect((await readToken(flipChar(token, at), [AES_RIGHT])).verified).toBe(false);
    }
  });

  it('says a 32-byte key is needed when no configured key has that length', async () => {
    const r = await readToken(await encrypt('{}'), [RIGHT]);
    expect(r.verified).toBe(false);
    expect(r.verifyError).toMatch(/32-byte key/);
  });

  it('leaves a JWE with an unsupported alg unverified with a note', async () => {
    const token = await new CompactEncrypt(new TextEncoder().encode('{}'))
      .setProtectedHeader({ alg: 'A256KW', enc: 'A128GCM' })
      .encrypt(AES_RIGHT.bytes);
    const r = await readToken(token, [AES_RIGHT]);
    expect(r).toMatchObject({ format: 'jwe', verified: null, payload: null });
    expect(r.note).toMatch(/only dir \+ A256GCM/);
  });
});
