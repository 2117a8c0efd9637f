// "Flip one byte" for the tamper tests: change exactly one byte of a token's payload while
// keeping its format (same segments, same base64 alphabet and padding, still valid JSON),
// so a server that parses without verifying takes the bait and one that verifies refuses.
// The byte picked is inside the deepest, longest string value (the data, e.g. a user's
// answer, rather than the tool name a server would route on), else a digit, else a raw
// character in the middle of the payload segment.
import { inspectToken } from '../tokens/index.js';
import { decodeBase64, encodeBase64Url, utf8 } from '../tokens/base64.js';

/** The tampered token and what was changed, for the report. */
export interface FlippedToken {
  token: string;
  detail: string;
}

interface Span {
  start: number;
  end: number;
  depth: number;
}

/** String-value literals (not keys) and number literals of a JSON text, with their depth. */
function literals(text: string): { strings: Span[]; numbers: Span[] } {
  const strings: Span[] = [];
  const numbers: Span[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text[j] !== ':') strings.push({ start: start + 1, end: i, depth });
    } else if (/[0-9]/.test(c)) {
      const start = i;
      while (i + 1 < text.length && /[0-9]/.test(text[i + 1])) i++;
      numbers.push({ start, end: i + 1, depth });
    }
  }
  return { strings, numbers };
}

/** The next character of the same class (a→b, z→a, 9→0), so the text stays well-formed. */
function nextOfClass(c: string): string {
  const code = c.charCodeAt(0);
  if (c >= 'a' && c <= 'z') return c === 'z' ? 'a' : String.fromCharCode(code + 1);
  if (c >= 'A' && c <= 'Z') return c === 'Z' ? 'A' : String.fromCharCode(code + 1);
  if (c >= '0' && c <= '9') return c === '9' ? '0' : String.fromCharCode(code + 1);
  return c === 'x' ? 'y' : 'x';
}

/** One plain character of a JSON text changed, or null when it has nothing safe to change. */
export function flipJsonText(text: string): { text: string; detail: string } | null {
  const { strings, numbers } = literals(text);
  const candidates = strings
    .map((s) => ({ ...s, at: pickPlain(text, s) }))
    .filter((s) => s.at >= 0)
    .sort((a, b) => b.depth - a.depth || b.end - b.start - (a.end - a.start));
  const pick = candidates[0];
  if (pick) {
    const out = text.slice(0, pick.at) + nextOfClass(text[pick.at]) + text.slice(pick.at + 1);
    return { text: out, detail: `changed "${text.slice(pick.start, pick.end)}" to "${out.slice(pick.start, pick.end)}" in the payload` };
  }
  const n = numbers.sort((a, b) => b.depth - a.depth)[0];
  if (!n) return null;
  const at = n.end - 1;
  const out = text.slice(0, at) + nextOfClass(text[at]) + text.slice(at + 1);
  return { text: out, detail: `changed the number ${text.slice(n.start, n.end)} to ${out.slice(n.start, n.end)} in the payload` };
}

/** A middle index of the literal holding a plain ASCII letter or digit (not in an escape), or -1. */
function pickPlain(text: string, s: Span): number {
  const mid = Math.floor((s.start + s.end) / 2);
  for (let d = 0; d < s.end - s.start; d++) {
    for (const i of [mid + d, mid - d - 1]) {
      if (i < s.start || i >= s.end) continue;
      if (/[A-Za-z0-9]/.test(text[i]) && text[i - 1] !== '\\') return i;
    }
  }
  return -1;
}

/** Flips one character in the middle of `token[start, end)` within the base64url/base64 alphabet. */
function flipRaw(token: string, start: number, end: number): FlippedToken {
  const at = start + Math.floor((end - start) / 2);
  const ch = token[at] ?? 'A';
  const swapped = nextOfClass(ch);
  return { token: token.slice(0, at) + swapped + token.slice(at + 1), detail: `changed character ${at + 1} of the token from "${ch}" to "${swapped}"` };
}

/** Re-encodes a changed payload in the alphabet and padding the original segment used. */
function encodeLike(segment: string, text: string): string {
  const bytes = new TextEncoder().encode(text);
  if (/[-_]/.test(segment) || !/[+/=]/.test(segment)) {
    const url = encodeBase64Url(bytes);
    return segment.endsWith('=') ? url + '='.repeat((4 - (url.length % 4)) % 4) : url;
  }
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  const std = btoa(bin);
  return segment.endsWith('=') ? std : std.replace(/=+$/, '');
}

/** Where a token's payload lies, by the format the decoder recognises. */
function payloadSpan(token: string): { start: number; end: number; encoded: boolean } {
  const format = inspectToken(token).format;
  const first = token.indexOf('.');
  const last = token.lastIndexOf('.');
  switch (format) {
    case 'sdk-hmac-v1':
    case 'jws':
      return { start: first + 1, end: last, encoded: true };
    case 'mac-json':
      return { start: 0, end: first, encoded: true };
    case 'base64-json':
      return { start: 0, end: token.length, encoded: true };
    case 'json':
      return { start: 0, end: token.length, encoded: false };
    case 'jwe': {
      const dots = token.split('.');
      const start = dots.slice(0, 3).join('.').length + 1;
      return { start, end: start + dots[3].length, encoded: false };
    }
    default:
      return { start: 0, end: token.length, encoded: false };
  }
}

/** The token with one byte of its payload changed, keeping its format. */
export function flipPayloadByte(token: string): FlippedToken {
  if (token.length === 0) return { token: 'A', detail: 'the token was empty; sent "A"' };
  const span = payloadSpan(token);
  const segment = token.slice(span.start, span.end);
  const format = inspectToken(token).format;
  if (format === 'json') {
    const f = flipJsonText(token);
    if (f) return { token: f.text, detail: f.detail };
  } else if (span.encoded) {
    const bytes = decodeBase64(segment, 'either');
    const text = bytes ? utf8(bytes) : null;
    const f = text !== null ? flipJsonText(text) : null;
    if (f) return { token: token.slice(0, span.start) + encodeLike(segment, f.text) + token.slice(span.end), detail: f.detail };
  }
  return flipRaw(token, span.start, span.end);
}
