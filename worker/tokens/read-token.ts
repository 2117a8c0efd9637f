// Decode + verify with the configured keys. Never rejects: a token that cannot be checked
// is still a reading, with verifyError or a note saying why.
import type { TokenReading } from '../protocol.js';
import { addNote, type Decoded } from './decoded.js';
import { decodeToken, inspectToken } from './inspect-token.js';
import type { TokenKey } from './keys.js';
import { verifyHmacSha256, type KeyCheck } from './verify-hmac.js';
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

/**
 * Reads a token and checks it with every key: `verified` true (with keyIndex) when one
 * key verifies, false with verifyError when none does, null when no keys were given or
 * the format has nothing a shared key can check.
 */
export async function readToken(token: string, keys: readonly TokenKey[]): Promise<TokenReading> {
  let d: Decoded;
  try {
    d = decodeToken(token);
  } catch {
    return inspectToken(token);
  }
  const list = Array.isArray(keys) ? keys : [];
  if (list.length === 0) return d.reading;
  try {
    const result = await check(token, d, list);
    if (result !== null) {
      d.reading.verified = result.verified;
      if (result.keyIndex !== undefined) d.reading.keyIndex = result.keyIndex;
      if (result.verifyError !== undefined) d.reading.verifyError = result.verifyError;
    }
  } catch (e) {
    // WebCrypto or jose failing outside the cases handled above: report, don't throw.
    d.reading.verified = false;
    d.reading.verifyError = 'verification failed unexpectedly';
    addNote(d.reading, e instanceof Error ? e.name : 'error');
  }
  return d.reading;
}
