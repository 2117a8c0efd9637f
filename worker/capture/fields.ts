// Small readers for parsed, untrusted JSON. Hazard: a file may carry keys such as
// `__proto__` or `constructor`; reading only own properties and copying only known fields
// (never spreading or merging a parsed object) keeps them from reaching any prototype.
import type { HeaderPair } from '../protocol.js';

/** A plain JSON object (not null, not an array). */
export type Obj = Record<string, unknown>;

/** True for a JSON object. */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value of an own property, or undefined (inherited members are never read). */
export function own(o: Obj, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** An own string property, or undefined. */
export function str(o: Obj, key: string): string | undefined {
  const v = own(o, key);
  return typeof v === 'string' ? v : undefined;
}

/** An own finite number property, or undefined (JSON `1e400` parses as Infinity). */
export function num(o: Obj, key: string): number | undefined {
  const v = own(o, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Where and why one field is unusable. */
export interface FieldProblem {
  where: string;
  message: string;
}

/** Reads `[{name, value}]` header pairs; a missing list is empty, a malformed one a problem.
 *  `intern` shares equal strings between records (see `interner`). */
export function readHeaders(v: unknown, where: string, intern: (s: string) => string = same): HeaderPair[] | FieldProblem {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return { where, message: 'headers must be a list of {name, value}' };
  // Sized up front: a list grown by push keeps room for 17 pairs, and 100k records keep it.
  const out: HeaderPair[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const h = v[i];
    if (!isObj(h)) return { where: `${where}[${i}]`, message: 'a header must be an object {name, value}' };
    const name = own(h, 'name');
    const value = own(h, 'value');
    if (typeof name !== 'string') return { where: `${where}[${i}].name`, message: 'a header name must be a string' };
    if (typeof value !== 'string') return { where: `${where}[${i}].value`, message: 'a header value must be a string' };
    out[i] = { name: intern(name), value: intern(value) };
  }
  return out;
}

const same = (s: string) => s;

/**
 * A string sharer for one import: a capture repeats the same header names and values,
 * URLs and methods in every record, and JSON.parse makes a new copy of each (V8 shares only
 * very short values). Bounded in entries and length, so a capture of unique values costs a
 * few thousand map entries and no more.
 */
export function interner(limit = 4096, maxLength = 256): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    if (s.length > maxLength) return s;
    const hit = seen.get(s);
    if (hit !== undefined) return hit;
    if (seen.size < limit) seen.set(s, s);
    return s;
  };
}

/** True when `x` is a FieldProblem rather than data. */
export function isProblem(x: unknown): x is FieldProblem {
  return isObj(x) && typeof x.where === 'string' && typeof x.message === 'string';
}

/** The first header of that name (case-insensitive), or undefined. */
export function headerValue(headers: readonly HeaderPair[], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const h of headers) if (h.name.toLowerCase() === lower) return h.value;
  return undefined;
}

const B64 = new Int16Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => { B64[c.charCodeAt(0)] = i; });
// Lenient on purpose: some producers write base64url or wrap lines.
B64['-'.charCodeAt(0)] = 62;
B64['_'.charCodeAt(0)] = 63;

/** Decodes base64 (whitespace and missing padding tolerated) to bytes, or null when it is not base64. */
export function base64Bytes(text: string): Uint8Array | null {
  // The native decoder is several times faster on big bodies; it refuses base64url and
  // some paddings, which the loop below accepts.
  try {
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return base64Loop(text);
  }
}

function base64Loop(text: string): Uint8Array | null {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3);
  let n = 0;
  let acc = 0;
  let bits = 0;
  let ended = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c === 61) { ended = true; continue; }
    const v = c < 128 ? B64[c] : -1;
    if (v < 0 || ended) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

// ignoreBOM keeps a leading BOM in the text, so the body is what was on the wire.
const UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** UTF-8 bytes to text; invalid sequences become U+FFFD. */
export function utf8(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}

/** Epoch ms of an ISO-8601 date-time, or undefined. */
export function epochMs(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}
