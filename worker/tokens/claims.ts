// What a readable payload says about itself: expiry, issue time, and whether it is bound
// to a request or a principal. Only the top-level keys of each object are looked at, so
// nothing walks attacker-shaped structures (payloads may be 1 MB or nested 10k deep).

/** The claim-derived fields of a TokenReading. */
export interface Claims {
  expiresAt: string | null;
  issuedAt: string | null;
  requestBound: boolean;
  principalBound: boolean;
}

const EXPIRY_NAMES = ['exp', 'expiresAt', 'expires_at', 'expiry'] as const;
const ISSUED_NAMES = ['iat', 'issuedAt', 'issued_at'] as const;
// A request is named by its method or a digest of its salient params. The standard JWT
// claims aud, sub and jti may name it too, but usually name something else (an API, a
// user, a token): state/no-request-binding reads those against the request itself.
const REQUEST_NAMES = [
  'method', 'tool', 'toolName', 'tool_name', 'name', 'uri', 'prompt', 'request', 'req',
  'digest', 'requestDigest', 'request_digest', 'paramsHash', 'params_hash', 'argsHash', 'args_hash',
  'hash', 'h',
] as const;
// A bare sessionId/session is deliberately absent: a session is not a principal.
const PRINCIPAL_NAMES = [
  'sub', 'subject', 'user', 'userId', 'user_id', 'principal', 'uid', 'account', 'client_id', 'clientId',
] as const;

// Largest instant a Date can hold (ECMA-262 §21.4.1.22); beyond it toISOString throws.
const MAX_DATE_MS = 8.64e15;
// toISOString dominates a small token's decode, and a capture's tokens share few expiries.
const ISO_CACHE = new Map<number, string>();
const ISO_CACHE_LIMIT = 4096;

// Name → role. Time roles carry a priority (lower wins within one object).
const EXPIRY = 0;
const ISSUED = 1;
const REQUEST = 2;
const PRINCIPAL = 3;
const ROLES = new Map<string, { role: number; rank: number }>();
EXPIRY_NAMES.forEach((n, rank) => ROLES.set(n, { role: EXPIRY, rank }));
ISSUED_NAMES.forEach((n, rank) => ROLES.set(n, { role: ISSUED, rank }));
for (const n of REQUEST_NAMES) ROLES.set(n, { role: REQUEST, rank: 0 });
for (const n of PRINCIPAL_NAMES) ROLES.set(n, { role: PRINCIPAL, rank: 0 });

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '' && v !== false;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * A claim value as ISO-8601: numbers below 1e12 are unix seconds, larger ones epoch ms;
 * strings must look like an ISO date (YYYY-…), so "soon" or "600" are not dates.
 */
export function instant(v: unknown): string | null {
  let ms: number;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) return null;
    ms = v < 1e12 ? v * 1000 : v;
  } else if (typeof v === 'string') {
    if (v.length < 10 || v.length > 40) return null;
    if (!isDigit(v.charCodeAt(0)) || !isDigit(v.charCodeAt(3)) || v.charCodeAt(4) !== 45) return null;
    ms = Date.parse(v);
  } else {
    return null;
  }
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return null;
  let iso = ISO_CACHE.get(ms);
  if (iso === undefined) {
    iso = new Date(ms).toISOString();
    if (ISO_CACHE.size >= ISO_CACHE_LIMIT) ISO_CACHE.clear();
    ISO_CACHE.set(ms, iso);
  }
  return iso;
}

/** The payload as a plain object to read claims from, or null for arrays and scalars. */
export function asRecord(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/**
 * Reads claims from `objects` in priority order (the first object that carries a valid
 * time wins). `bound` marks a request binding the payload cannot show, e.g. an SDK bind
 * tag. One pass over each object's own keys (Object.keys: inherited names such as
 * toString are never claims), so small payloads on hot paths cost a few map lookups.
 */
export function readClaims(objects: readonly (Record<string, unknown> | null)[], bound = false): Claims {
  const out: Claims = { expiresAt: null, issuedAt: null, requestBound: bound, principalBound: false };
  for (const obj of objects) {
    if (obj === null) continue;
    let expRank = Infinity;
    let iatRank = Infinity;
    let exp: string | null = null;
    let iat: string | null = null;
    for (const name of Object.keys(obj)) {
      const r = ROLES.get(name);
      if (r === undefined) continue;
      const v = obj[name];
      if (r.role === REQUEST) out.requestBound ||= present(v);
      else if (r.role === PRINCIPAL) out.principalBound ||= present(v);
      else if (r.role === EXPIRY) {
        if (out.expiresAt === null && r.rank < expRank) {
          const t = instant(v);
          if (t !== null) {
            exp = t;
            expRank = r.rank;
          }
        }
      } else if (out.issuedAt === null && r.rank < iatRank) {
        const t = instant(v);
        if (t !== null) {
          iat = t;
          iatRank = r.rank;
        }
      }
    }
    out.expiresAt ??= exp;
    out.issuedAt ??= iat;
  }
  return out;
}

/** Claims of a token with nothing readable. */
export const NO_CLAIMS: Readonly<Claims> = Object.freeze({
  expiresAt: null,
  issuedAt: null,
  requestBound: false,
  principalBound: false,
});
