// Sync recognition of compact JWS (3 parts) and JWE (5 parts). Decoding only; jose does
// the cryptography later, in verify-jose.ts.
import { b64JsonObject, decodeBase64, isBase64UrlChars, utf8 } from './base64.js';
import { parseJsonValue } from './json-text.js';
import { asRecord, readClaims } from './claims.js';
import { makeReading, shown, type AlgFamily, type Decoded } from './decoded.js';

const HMAC_ALGS = new Set(['HS256', 'HS384', 'HS512']);
const ASYMMETRIC_ALGS = new Set([
  'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'ES256K',
  'EdDSA', 'Ed25519', 'Ed448', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87',
]);

/** Classifies a JWS alg. `none` in any case counts as none: "None"/"NONE" is a classic bypass. */
export function algFamily(alg: string): AlgFamily {
  if (HMAC_ALGS.has(alg)) return 'hmac';
  if (ASYMMETRIC_ALGS.has(alg)) return 'asymmetric';
  if (alg.length === 4 && alg.toLowerCase() === 'none') return 'none';
  return 'unknown';
}

/** Reads a JWS payload part: JSON when it parses, else text, else null with a reason. */
function jwsPayload(token: string, start: number, end: number, b64: boolean): { payload: unknown; note?: string } {
  if (start === end) return { payload: null, note: 'detached payload (the middle part is empty)' };
  if (!b64) return { payload: token.slice(start, end), note: 'unencoded payload (b64: false)' };
  const bytes = decodeBase64(token, 'url', start, end);
  if (bytes === null) return { payload: null, note: 'payload part is not base64url' };
  const text = utf8(bytes);
  if (text === null) return { payload: null, note: `payload is ${bytes.length} bytes of binary, not UTF-8 text` };
  const json = parseJsonValue(text);
  return json === undefined ? { payload: text, note: 'payload is text, not JSON' } : { payload: json.value };
}

/** A 3-part token whose first part is a JSON header with a string `alg`; else null. */
export function inspectJws(token: string, d1: number, d2: number): Decoded | null {
  const header = b64JsonObject(token, 0, d1);
  if (header === null) return null;
  const alg = header.alg;
  if (typeof alg !== 'string') return null;
  if (!isBase64UrlChars(token, d2 + 1)) return null;
  const family = algFamily(alg);
  const { payload, note } = jwsPayload(token, d1 + 1, d2, header.b64 !== false);
  const notes: string[] = [];
  if (note !== undefined) notes.push(note);
  if (family === 'none') notes.push('alg none: unsigned, so anyone can forge it');
  else if (family === 'asymmetric') notes.push(`signed with ${alg}: checking it needs the server's public key, which is not supported yet`);
  else if (family === 'unknown') notes.push(`unrecognised alg "${shown(alg)}": not verified`);
  const reading = makeReading('jws', family === 'hmac' || family === 'asymmetric', payload, readClaims([asRecord(payload)]), {
    header,
    note: notes.length > 0 ? notes.join('; ') : undefined,
  });
  // A plain HS256 JWS (no crit, no b64 parameter, a readable payload) is an HMAC-SHA256 over
  // its first two parts, which a host's injected synchronous check can verify without jose
  // and its promises; anything less plain is left to jose (verify-jose.ts).
  if (alg === 'HS256' && header.crit === undefined && !Object.hasOwn(header, 'b64') && d2 > d1 + 1 && note === undefined) {
    const mac = decodeBase64(token, 'url', d2 + 1, token.length);
    if (mac !== null) return { reading, material: { kind: 'jws', alg, family, hs256: { signingInput: token.slice(0, d2), mac } } };
  }
  return { reading, material: { kind: 'jws', alg, family } };
}

/** True when this JWE can be decrypted here with a 32-byte key. */
export function isDirA256Gcm(alg: unknown, enc: unknown): boolean {
  return alg === 'dir' && enc === 'A256GCM';
}

/** A 5-part token whose first part is a JSON header naming `alg` or `enc`; else null. */
export function inspectJwe(token: string, dots: readonly number[]): Decoded | null {
  const header = b64JsonObject(token, 0, dots[0]);
  if (header === null) return null;
  const { alg, enc } = header;
  if (typeof alg !== 'string' && typeof enc !== 'string') return null;
  for (let i = 0; i < 4; i++) {
    if (!isBase64UrlChars(token, dots[i] + 1, i < 3 ? dots[i + 1] : token.length)) return null;
  }
  const note = isDirA256Gcm(alg, enc)
    ? 'encrypted (dir, A256GCM): add the server\'s 32-byte key to decrypt it'
    : `encrypted with alg ${shown(alg)}, enc ${shown(enc)}: only dir + A256GCM can be decrypted here`;
  const reading = makeReading('jwe', true, null, undefined, { header, note });
  return { reading, material: { kind: 'jwe', alg, enc } };
}
