// Base64 in both alphabets and strict UTF-8 for token parts. Everything here returns null
// on bad input instead of throwing: token text is untrusted and inspection runs on hot
// paths, so no regexes and no exceptions for control flow except around the fatal
// TextDecoder, which has no non-throwing form.
import { parseJsonObject } from './json-text.js';

/** Which characters a base64 string may use: RFC 4648 §4, §5, or either (never mixed). */
export type B64Alphabet = 'url' | 'std' | 'either';

// Per char code: the sextet, plus URL_ONLY for '-' '_' and STD_ONLY for '+' '/'; -1 for
// anything else. OR-ing the entries of a string tells which alphabets it used in the same
// pass that decodes it.
const URL_ONLY = 64;
const STD_ONLY = 128;
const TABLE = new Int16Array(128).fill(-1);
const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
for (let i = 0; i < CHARS.length; i++) TABLE[CHARS.charCodeAt(i)] = i;
TABLE[43] = 62 | STD_ONLY; // +
TABLE[47] = 63 | STD_ONLY; // /
TABLE[45] = 62 | URL_ONLY; // -
TABLE[95] = 63 | URL_ONLY; // _

/**
 * Decodes base64 (trailing `=` padding optional) from `s[start, end)`; null when a
 * character falls outside the alphabet, the alphabets are mixed, or the length is
 * impossible. Non-zero trailing bits are tolerated, as `atob` tolerates them.
 */
export function decodeBase64(s: string, alphabet: B64Alphabet, start = 0, end = s.length): Uint8Array<ArrayBuffer> | null {
  let stop = end;
  while (stop > start && s.charCodeAt(stop - 1) === 61) stop--;
  const pad = end - stop;
  const n = stop - start;
  if (pad > 2 || n % 4 === 1 || (pad > 0 && (n + pad) % 4 !== 0)) return null;
  // Seeding with the other alphabet's flag makes one foreign char a mismatch.
  let seen = alphabet === 'url' ? URL_ONLY : alphabet === 'std' ? STD_ONLY : 0;
  const out = new Uint8Array((n * 3) >> 2);
  let o = 0;
  let i = start;
  // Hot path (every token of a capture): whole groups of four characters, three bytes each.
  for (const whole = start + (n & ~3); i < whole; i += 4) {
    const c0 = s.charCodeAt(i), c1 = s.charCodeAt(i + 1), c2 = s.charCodeAt(i + 2), c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) >= 128) return null;
    const v0 = TABLE[c0], v1 = TABLE[c1], v2 = TABLE[c2], v3 = TABLE[c3];
    if ((v0 | v1 | v2 | v3) < 0) return null;
    seen |= v0 | v1 | v2 | v3;
    const w = ((v0 & 63) << 18) | ((v1 & 63) << 12) | ((v2 & 63) << 6) | (v3 & 63);
    out[o++] = w >> 16;
    out[o++] = (w >> 8) & 0xff;
    out[o++] = w & 0xff;
  }
  // The last two or three characters, bit by bit.
  let acc = 0;
  let bits = 0;
  for (; i < stop; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? TABLE[c] : -1;
    if (v < 0) return null;
    seen |= v;
    acc = ((acc << 6) | (v & 63)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return (seen & (URL_ONLY | STD_ONLY)) === (URL_ONLY | STD_ONLY) ? null : out;
}

/** True when every char of `s[start, end)` is in the base64url alphabet (no padding). */
export function isBase64UrlChars(s: string, start = 0, end = s.length): boolean {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || TABLE[c] < 0 || (TABLE[c] & STD_ONLY) !== 0) return false;
  }
  return true;
}

/** base64url without padding, as JOSE and the SDK codec write it. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  let b64 = btoa(bin);
  let end = b64.length;
  while (end > 0 && b64.charCodeAt(end - 1) === 61) end--;
  b64 = b64.slice(0, end);
  let out = '';
  for (let i = 0; i < b64.length; i++) {
    const c = b64[i];
    out += c === '+' ? '-' : c === '/' ? '_' : c;
  }
  return out;
}

const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true });
const UTF8 = new TextEncoder();

/** Strict UTF-8 decode; null on malformed bytes (a lenient decode would hide tampering). */
export function utf8(bytes: Uint8Array): string | null {
  try {
    return FATAL_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** UTF-8 bytes of a string, typed for WebCrypto's BufferSource. */
export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
  return UTF8.encode(text) as Uint8Array<ArrayBuffer>;
}

/** base64url part → UTF-8 → JSON object, or null (JOSE headers, SDK bodies). */
export function b64JsonObject(s: string, start: number, end: number): Record<string, unknown> | null {
  // '{' always encodes to a leading 'e': a cheap reject before decoding anything.
  if (end <= start || s.charCodeAt(start) !== 101) return null;
  const bytes = decodeBase64(s, 'url', start, end);
  if (bytes === null) return null;
  const text = utf8(bytes);
  return text === null ? null : parseJsonObject(text);
}
