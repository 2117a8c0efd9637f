// Decode + verify with the configured keys. Never rejects: a token that cannot be checked
// is still a reading, with verifyError or a note saying why.
import type { TokenReading } from '../protocol.js';
import { addNote, type Decoded } from './decoded.js';
import { decodeToken, inspectToken } from './inspect-token.js';
import { isTokenKey, type TokenKey } from './keys.js';
import { keysPhrase, verifyHmacSha256, verifyHmacSha256Sync, type HmacSha256Check, type KeyCheck } from './verify-hmac.js';
import { utf8Bytes } from './base64.js';
import { decryptJwe, verifyJws } from './verify-jose.js';

async function check(token: string, d: Decoded, keys: readonly TokenKey[]): Promise<KeyCheck | null> {
  const m = d.material;
  switch (m.kind) {
    case 'hmac-sha256':
      return verifyHmacSha256(m.signingInput, m.mac, keys);
    case 'jws':
      return verifyJws(token, m.alg, m.family, keys);
    case 'jwe':
      return decryptJwe(token, m.alg, m.enc, keys, d.reading);
    case 'none':
      return null;
  }
}

function apply(d: Decoded, result: KeyCheck | null): TokenReading {
  if (result !== null) {
    d.reading.verified = result.verified;
    if (result.keyIndex !== undefined) d.reading.keyIndex = result.keyIndex;
    if (result.verifyError !== undefined) d.reading.verifyError = result.verifyError;
  }
  return d.reading;
}

/** The reading now, when `d` needs no async check (see readTokenSync); else undefined. */
function checkNow(d: Decoded, keys: readonly TokenKey[], hmac: HmacSha256Check | undefined): TokenReading | undefined {
  if (keys.length === 0 || d.material.kind === 'none') return d.reading;
  if (hmac === undefined) return undefined;
  const m = d.material;
  if (m.kind === 'jws' && m.hs256 !== undefined) {
    try {
      return apply(d, verifyHs256JwsSync(m.hs256.signingInput, m.hs256.mac, keys, hmac));
    } catch (e) {
      return failed(d, e);
    }
  }
  if (m.kind !== 'hmac-sha256') return undefined;
  try {
    return apply(d, verifyHmacSha256Sync(m.signingInput, m.mac, keys, hmac));
  } catch (e) {
    // The injected check failing (a host bug): report, don't throw, as readToken does.
    return failed(d, e);
  }
}

/** verifyJws's verdict and messages for a plain HS256 JWS, through the injected check. A key
 *  WebCrypto cannot import (empty) is skipped, as verifyJws skips it. */
function verifyHs256JwsSync(signingInput: string, mac: Uint8Array, keys: readonly TokenKey[], check: HmacSha256Check): KeyCheck {
  const data = utf8Bytes(signingInput);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!isTokenKey(key) || key.bytes.length === 0) continue;
    if (check(key.bytes, data, mac)) return { verified: true, keyIndex: i };
  }
  return { verified: false, verifyError: `HS256 signature does not match ${keysPhrase(keys.length)}` };
}

function failed(d: Decoded, e: unknown): TokenReading {
  d.reading.verified = false;
  d.reading.verifyError = 'verification failed unexpectedly';
  addNote(d.reading, e instanceof Error ? e.name : 'error');
  return d.reading;
}

/**
 * readToken without a promise, for hosts reading 50k+ tokens: the same reading when it can
 * be made synchronously (no keys, nothing a key can check, or an HMAC format, plain HS256
 * JWS included, with a `hmac` check injected); undefined when only readToken can (other
 * JOSE, or HMAC without `hmac`).
 */
export function readTokenSync(token: string, keys: readonly TokenKey[], hmac?: HmacSha256Check): TokenReading | undefined {
  let d: Decoded;
  try {
    d = decodeToken(token);
  } catch {
    return inspectToken(token);
  }
  return checkNow(d, Array.isArray(keys) ? keys : [], hmac);
}

/**
 * Reads a token and checks it with every key: `verified` true (with keyIndex) when one
 * key verifies, false with verifyError when none does, null when no keys were given or
 * the format has nothing a shared key can check. `hmac`: see HmacSha256Check.
 */
export async function readToken(token: string, keys: readonly TokenKey[], hmac?: HmacSha256Check): Promise<TokenReading> {
  let d: Decoded;
  try {
    d = decodeToken(token);
  } catch {
    return inspectToken(token);
  }
  const list = Array.isArray(keys) ? keys : [];
  const now = checkNow(d, list, hmac);
  if (now !== undefined) return now;
  try {
    return apply(d, await check(token, d, list));
  } catch (e) {
    // WebCrypto or jose failing outside the cases handled above: report, don't throw.
    return failed(d, e);
  }
}
