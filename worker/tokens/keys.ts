// Verification keys: parsing what the user typed, and importing them into WebCrypto once.
// Keys are secrets: no error message, label or log line here may contain key text or bytes.

import { decodeBase64 } from './base64.js';

/** A key the user configured for a server: raw bytes plus a redacted description. */
export interface TokenKey {
  bytes: Uint8Array;
  /** Safe to display: syntax and length only, e.g. `utf-8 key (41 bytes)`. */
  label: string;
}

/** parseKey's answer; `warning` flags a usable but suspicious key (too short, stray spaces). */
export type ParsedKey = { ok: true; key: TokenKey; warning?: string } | { ok: false; error: string };

// The SDK codec refuses shorter keys; HS256 and dir/A256GCM want at least this much too.
const MIN_STRONG_BYTES = 32;

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function parseHex(body: string): Uint8Array | string {
  const digits: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (isSpace(c) || c === 58) continue; // spaces and colons (aa:bb:cc) are separators
    const v = hexValue(c);
    // Position only: echoing the character would leak part of the secret.
    if (v < 0) return `hex key has a character that is not a hex digit at position ${i + 1}; use 0-9 and a-f only`;
    digits.push(v);
  }
  if (digits.length === 0) return 'hex key is empty after "hex:"; paste the key after the prefix';
  if (digits.length % 2 !== 0) return `hex key has an odd number of digits (${digits.length}); each byte needs two`;
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = (digits[2 * i] << 4) | digits[2 * i + 1];
  return out;
}

function parseB64(body: string): Uint8Array | string {
  let compact = '';
  for (let i = 0; i < body.length; i++) if (!isSpace(body.charCodeAt(i))) compact += body[i];
  if (compact.length === 0) return 'base64 key is empty after "base64:"; paste the key after the prefix';
  const bytes = decodeBase64(compact, 'either');
  if (bytes === null) {
    return 'base64 key is not valid base64 or base64url (a character outside the alphabet, mixed alphabets, or a truncated length); check the pasted text';
  }
  return bytes;
}

function utf8Label(text: string, n: number): string {
  const edgeSpace = isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1));
  return `utf-8 key (${n} bytes${edgeSpace ? ', starts or ends with whitespace' : ''})`;
}

/**
 * Parses a key as typed: `hex:…`, `base64:…` (base64url too), `utf8:…` to force text, or
 * bare text taken as UTF-8 exactly (whitespace included: servers hash what they were given).
 */
export function parseKey(text: string): ParsedKey {
  if (typeof text !== 'string') return { ok: false, error: 'key must be text (utf-8, hex:… or base64:…)' };
  if (text.length === 0) return { ok: false, error: 'key is empty; paste the server\'s key as text, hex:… or base64:…' };
  const colon = text.indexOf(':');
  const prefix = colon > 0 && colon <= 9 ? text.slice(0, colon).toLowerCase() : '';
  let bytes: Uint8Array;
  let label: string;
  if (prefix === 'hex') {
    const r = parseHex(text.slice(colon + 1));
    if (typeof r === 'string') return { ok: false, error: r };
    bytes = r;
    label = `hex key (${bytes.length} bytes)`;
  } else if (prefix === 'base64' || prefix === 'b64' || prefix === 'base64url') {
    const r = parseB64(text.slice(colon + 1));
    if (typeof r === 'string') return { ok: false, error: r };
    bytes = r;
    label = `base64 key (${bytes.length} bytes)`;
  } else {
    const body = prefix === 'utf8' || prefix === 'utf-8' || prefix === 'text' ? text.slice(colon + 1) : text;
    if (body.length === 0) return { ok: false, error: 'key is empty after the prefix; paste the key after it' };
    bytes = new TextEncoder().encode(body);
    label = utf8Label(body, bytes.length);
  }
  if (bytes.length === 0) return { ok: false, error: 'key decodes to zero bytes; HMAC and AES need a non-empty key' };
  const key: TokenKey = Object.freeze({ bytes, label });
  if (bytes.length < MIN_STRONG_BYTES) {
    return { ok: true, key, warning: `key is ${bytes.length} bytes; the SDK codec requires at least ${MIN_STRONG_BYTES}` };
  }
  return { ok: true, key };
}

export type HmacHash = 'SHA-256' | 'SHA-384' | 'SHA-512';

// Named structurally: the CLI compiles this folder against Node's typings, which have no
// global CryptoKey type.
export type SubtleKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/*
 * Imported CryptoKeys, keyed by key *content* and algorithm. Content, not object identity:
 * keys reach the worker through structured clone, so the same key arrives as a new
 * Uint8Array on every call and an identity cache would miss 50k times. The map holds key
 * material in memory, exactly as the key list itself does; it is bounded and never exported.
 * Failed imports are cached too (as rejected promises) so a bad key fails fast.
 */
const CACHE_LIMIT = 256;
const cache = new Map<string, Promise<SubtleKey>>();

function cacheId(bytes: Uint8Array, alg: string): string {
  let s = alg + ':';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

function cached(bytes: Uint8Array, alg: string, make: (raw: Uint8Array<ArrayBuffer>) => Promise<SubtleKey>): Promise<SubtleKey> {
  const id = cacheId(bytes, alg);
  let p = cache.get(id);
  if (p === undefined) {
    // Copy: the caller may reuse or mutate its buffer after this returns.
    p = make(new Uint8Array(bytes));
    p.catch(() => undefined); // observed here; callers still see the rejection
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(id, p);
  }
  return p;
}

/** True when `key` has the TokenKey shape (keys may arrive from untyped callers). */
export function isTokenKey(key: unknown): key is TokenKey {
  return typeof key === 'object' && key !== null && (key as TokenKey).bytes instanceof Uint8Array;
}

/** The key as an HMAC CryptoKey for `hash` (sign + verify), imported once. */
export function hmacKey(key: TokenKey, hash: HmacHash): Promise<SubtleKey> {
  return cached(key.bytes, 'HMAC-' + hash, (raw) =>
    crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash }, false, ['sign', 'verify']),
  );
}

/** The key as an AES-256-GCM CryptoKey for JWE `dir` decryption, imported once. */
export function aesGcmKey(key: TokenKey): Promise<SubtleKey> {
  return cached(key.bytes, 'A256GCM', (raw) => crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['decrypt']));
}
