import { describe, expect, it } from 'vitest';
import { inspectToken } from '../../../worker/tokens/index.js';

const read = (payload: unknown) => inspectToken(JSON.stringify(payload));

describe('claims', () => {
  it('reads expiry as unix seconds below 1e12 and as epoch ms above', () => {
    expect(read({ exp: 1_780_000_000 }).expiresAt).toBe('2026-05-28T20:26:40.000Z');
    expect(read({ expires_at: 1_780_000_000_123 }).expiresAt).toBe('2026-05-28T20:26:40.123Z');
  });

  it('reads expiry and issue time from every supported name and from ISO strings', () => {
    for (const name of ['exp', 'expiresAt', 'expires_at', 'expiry']) {
      expect(read({ [name]: '2026-08-01T00:00:00Z' }).expiresAt, name).toBe('2026-08-01T00:00:00.000Z');
    }
    for (const name of ['iat', 'issuedAt', 'issued_at']) {
      expect(read({ [name]: 1_700_000_000 }).issuedAt, name).toBe('2023-11-14T22:13:20.000Z');
    }
  });

  it('ignores time claims that are not times', () => {
    for (const v of ['soon', '600', -5, 1e300, null, true, {}, '2026-99-99T00:00:00Z']) {
      expect(read({ exp: v }).expiresAt, JSON.stringify(v)).toBeNull();
    }
  });

  it('counts a method, tool, name, uri or params digest as request binding', () => {
    for (const name of ['method', 'tool', 'toolName', 'name', 'uri', 'prompt', 'request', 'req', 'digest', 'requestDigest', 'paramsHash', 'argsHash']) {
      expect(read({ [name]: 'x' }).requestBound, name).toBe(true);
    }
    expect(read({ step: 1, cursor: 'x' }).requestBound).toBe(false);
    expect(read({ method: '' }).requestBound).toBe(false);
  });

  it('counts sub, user, principal and client ids as principal binding, but not a bare session id', () => {
    for (const name of ['sub', 'subject', 'user', 'userId', 'user_id', 'principal', 'uid', 'account', 'client_id']) {
      expect(read({ [name]: 'alice' }).principalBound, name).toBe(true);
    }
    expect(read({ sessionId: 's-1' }).principalBound).toBe(false);
    expect(read({ session: 's-1' }).principalBound).toBe(false);
  });

  it('does not take inherited names such as constructor or toString for claims', () => {
    const r = read({});
    expect(r).toMatchObject({ requestBound: false, principalBound: false, expiresAt: null });
  });

  it('keeps __proto__ in a payload as data and never pollutes Object.prototype', () => {
    const r = inspectToken('{"__proto__":{"polluted":"yes","sub":"evil"},"constructor":{"prototype":{"polluted":"yes"}}}');
    expect(r.format).toBe('json');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(r.payload, '__proto__')).toBe(true);
    expect(r.principalBound).toBe(false);
  });

  it('reads no claims from an array payload', () => {
    expect(read([{ sub: 'a', exp: 1_780_000_000 }])).toMatchObject({ principalBound: false, expiresAt: null });
  });
});
