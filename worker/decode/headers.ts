// Header lookups and the 2026 header value encoding (`=?base64?…?=`, shttp:467-520).
import type { HeaderPair } from '../protocol.js';

/** First value of a header, case-insensitively; undefined when absent. Hot path (rules ask
 *  for headers of every exchange): lengths first, so most names are never lower-cased. */
export function header(headers: readonly HeaderPair[], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const h of headers) if (h.name.length === lower.length && (h.name === lower || h.name.toLowerCase() === lower)) return h.value;
  return undefined;
}

/** Every value of a header, case-insensitively, in order. */
export function headerAll(headers: readonly HeaderPair[], name: string): string[] {
  const lower = name.toLowerCase();
  return headers.filter((h) => h.name.toLowerCase() === lower).map((h) => h.value);
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaType(value: string | undefined): string {
  if (!value) return '';
  const semi = value.indexOf(';');
  return (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
}

export type DecodedHeaderValue = { ok: true; value: string; encoded: boolean } | { ok: false; problem: string };

const SENTINEL_OPEN = '=?base64?';
const SENTINEL_CLOSE = '?=';

/**
 * Decodes a header value that may use the base64 sentinel. The markers are case-sensitive
 * (shttp:479-508): `=?BASE64?…?=` is not a sentinel and is reported as malformed.
 */
export function decodeHeaderValue(raw: string): DecodedHeaderValue {
  if (raw.startsWith(SENTINEL_OPEN) && raw.endsWith(SENTINEL_CLOSE) && raw.length >= SENTINEL_OPEN.length + SENTINEL_CLOSE.length) {
    const b64 = raw.slice(SENTINEL_OPEN.length, raw.length - SENTINEL_CLOSE.length);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return { ok: false, problem: `malformed base64 in ${raw.slice(0, 40)}` };
    try {
      const bin = atob(b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      return { ok: true, value: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoded: true };
    } catch {
      return { ok: false, problem: 'base64 sentinel does not hold valid UTF-8' };
    }
  }
  if (/^=\?base64\?/i.test(raw)) return { ok: false, problem: `sentinel markers must be lower-case: ${raw.slice(0, 40)}` };
  return { ok: true, value: raw, encoded: false };
}
