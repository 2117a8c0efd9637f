// JWS (HS256/384/512) verification and JWE (dir + A256GCM) decryption, done by jose.
// jose's own checks (crit, b64, alg allow-list) stay on; we only pass it CryptoKeys from
// the shared cache so 50k tokens do not mean 50k key imports.
import { compactDecrypt, compactVerify } from 'jose';
import type { TokenReading } from '../protocol.js';
import { utf8 } from './base64.js';
import { parseJsonValue } from './json-text.js';
import { asRecord, readClaims } from './claims.js';
import { addNote, shown, type AlgFamily } from './decoded.js';
import { isDirA256Gcm } from './inspect-jose.js';
import { aesGcmKey, hmacKey, isTokenKey, type HmacHash, type SubtleKey, type TokenKey } from './keys.js';
import { keysPhrase, type KeyCheck } from './verify-hmac.js';

const HASH_OF: Record<string, HmacHash> = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' };

function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : '';
}

function errorMessage(e: unknown): string {
  // jose messages describe the token, never the key; still cap them.
  return shown(e instanceof Error ? e.message : String(e));
}

/** Checks a JWS against each key; null when the alg cannot be checked with a shared key. */
export async function verifyJws(token: string, alg: string, family: AlgFamily, keys: readonly TokenKey[]): Promise<KeyCheck | null> {
  if (family === 'none') return { verified: false, verifyError: 'alg none is never accepted' };
  const hash = Object.hasOwn(HASH_OF, alg) ? HASH_OF[alg] : undefined;
  if (family !== 'hmac' || hash === undefined) return null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!isTokenKey(key)) continue;
    let ck: SubtleKey;
    try {
      ck = await hmacKey(key, hash);
    } catch {
      continue;
    }
    try {
      await compactVerify(token, ck, { algorithms: [alg] });
      return { verified: true, keyIndex: i };
    } catch (e) {
      if (errorCode(e) === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') continue;
      // Malformed for jose (bad crit, bad base64): no key will do better.
      return { verified: false, verifyError: `jose rejected the JWS: ${errorMessage(e)}` };
    }
  }
  return { verified: false, verifyError: `${alg} signature does not match ${keysPhrase(keys.length)}` };
}

/**
 * Decrypts a dir/A256GCM JWE with each 32-byte key and, on success, fills the reading's
 * payload and claims from the plaintext. Null when the alg/enc pair is not supported.
 */
export async function decryptJwe(token: string, alg: unknown, enc: unknown, keys: readonly TokenKey[], reading: TokenReading): Promise<KeyCheck | null> {
  if (!isDirA256Gcm(alg, enc)) return null;
  let tried = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    // AES-256 takes exactly 32 bytes; any other length cannot be this token's key.
    if (!isTokenKey(key) || key.bytes.length !== 32) continue;
    tried++;
    let plaintext: Uint8Array;
    try {
      const ck = await aesGcmKey(key);
      ({ plaintext } = await compactDecrypt(token, ck, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      }));
    } catch (e) {
      if (errorCode(e) === 'ERR_JWE_DECRYPTION_FAILED') continue;
      return { verified: false, verifyError: `jose rejected the JWE: ${errorMessage(e)}` };
    }
    fillPlaintext(reading, plaintext);
    return { verified: true, keyIndex: i };
  }
  if (tried === 0) {
    return { verified: false, verifyError: `none of the ${keys.length} configured keys is 32 bytes; dir + A256GCM needs a 32-byte key` };
  }
  return { verified: false, verifyError: `AEAD tag does not check with ${keysPhrase(tried)}${tried < keys.length ? ' of 32 bytes' : ''}` };
}

function fillPlaintext(reading: TokenReading, plaintext: Uint8Array): void {
  const text = utf8(plaintext);
  if (text === null) {
    reading.payload = null;
    reading.note = `decrypted: ${plaintext.length} bytes of binary, not UTF-8 text`;
    return;
  }
  const json = parseJsonValue(text);
  reading.payload = json === undefined ? text : json.value;
  reading.note = 'decrypted with the configured key';
  if (json === undefined) addNote(reading, 'plaintext is text, not JSON');
  const claims = readClaims([asRecord(reading.payload)]);
  reading.expiresAt = claims.expiresAt;
  reading.issuedAt = claims.issuedAt;
  reading.requestBound = claims.requestBound;
  reading.principalBound = claims.principalBound;
}
