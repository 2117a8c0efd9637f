// Redaction of credentials before a capture leaves the machine (HAR export by default,
// JSONL when asked). Works on copies: the stored records stay as captured.
import type { ExchangeRecord, HeaderPair, SseEventRecord } from '../protocol.js';

/** What every redacted value becomes. */
export const REDACTED = '[redacted]';

const ALWAYS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const SENSITIVE_NAME = /api[-_]?key|x-auth|token|secret/i;

/** True for a header whose value is a credential. MCP headers (`Mcp-*`) are never redacted. */
export function isSensitiveHeader(name: string): boolean {
  const n = name.toLowerCase();
  if (n.startsWith('mcp-')) return false;
  return ALWAYS.has(n) || SENSITIVE_NAME.test(n);
}

// OAuth fields, and API keys as query or body fields (`?api_key=…`, `"apiKey": "…"`), as the header rule has them.
const OAUTH = 'access_token|refresh_token|id_token|client_secret|password|api[-_]?key';
// A JSON member with a string or number value. Hazard: an escaped key spelling
// ("access\u005ftoken") is not recognised; configured secrets catch the value anyway.
const JSON_FIELD = new RegExp(`("(?:${OAUTH})"\\s*:\\s*)(?:"(?:[^"\\\\]|\\\\.)*"|-?[0-9][0-9.eE+-]*)`, 'gi');
// A form or query field: `access_token=...` up to the next `&`, `#` or whitespace.
const FORM_FIELD = new RegExp(`((?:^|[?&])(?:${OAUTH})=)[^&#\\s]*`, 'gi');

/** The spellings a secret may take in a body: raw, JSON-escaped, URL-encoded. */
function spellings(secrets: readonly string[]): string[] {
  const set = new Set<string>();
  for (const s of secrets) {
    // An empty secret would match between every character.
    if (!s) continue;
    set.add(s);
    set.add(JSON.stringify(s).slice(1, -1));
    set.add(encodeURIComponent(s));
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...set].sort((a, b) => b.length - a.length);
}

function replaceAll(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/** Redacts OAuth fields (JSON members and form/query fields) and the given secret spellings in a text. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  const out = text.replace(JSON_FIELD, `$1"${REDACTED}"`).replace(FORM_FIELD, `$1${REDACTED}`);
  return replaceAll(out, spellings(secrets));
}

function redactHeaders(headers: readonly HeaderPair[], secrets: readonly string[]): HeaderPair[] {
  return headers.map((h) => ({
    name: replaceAll(h.name, secrets),
    value: isSensitiveHeader(h.name) ? REDACTED : replaceAll(h.value, secrets),
  }));
}

/** Redacts cookie values (HAR `cookies` arrays) and secrets in cookie names. */
export function redactCookies<T extends { name: string; value: string }>(cookies: readonly T[], secrets: readonly string[] = []): T[] {
  const sp = spellings(secrets);
  return cookies.map((c) => ({ ...c, name: replaceAll(c.name, sp), value: REDACTED }));
}

/**
 * A redacted copy of a record: credential headers, OAuth fields in bodies, URLs and events,
 * and every configured secret anywhere in text. Ids and times are kept, so links survive.
 */
export function sanitizeRecord(r: ExchangeRecord, secrets: readonly string[] = []): ExchangeRecord {
  const sp = spellings(secrets);
  const text = (s: string) => replaceAll(s.replace(JSON_FIELD, `$1"${REDACTED}"`).replace(FORM_FIELD, `$1${REDACTED}`), sp);
  const out: ExchangeRecord = {
    ...r,
    request: { ...r.request, url: text(r.request.url), headers: redactHeaders(r.request.headers, sp) },
  };
  if (r.request.body !== undefined) out.request.body = text(r.request.body);
  // A crashed server's stderr can print anything it held, credentials included.
  if (r.stdio?.exit) out.stdio = { ...r.stdio, exit: { ...r.stdio.exit, stderrTail: text(r.stdio.exit.stderrTail) } };
  if (r.response) {
    const res = { ...r.response, headers: redactHeaders(r.response.headers, sp) };
    if (res.statusText !== undefined) res.statusText = replaceAll(res.statusText, sp);
    if (res.body !== undefined) res.body = text(res.body);
    if (res.tail !== undefined) res.tail = text(res.tail);
    if (res.events) {
      res.events = res.events.map((e): SseEventRecord => {
        const c: SseEventRecord = { ...e, data: text(e.data) };
        if (c.event !== undefined) c.event = replaceAll(c.event, sp);
        if (c.id !== undefined) c.id = replaceAll(c.id, sp);
        return c;
      });
    }
    out.response = res;
  }
  if (r.error !== undefined) out.error = replaceAll(r.error, sp);
  if (r.client !== undefined) out.client = replaceAll(r.client, sp);
  if (r.session !== undefined) out.session = replaceAll(r.session, sp);
  return out;
}
