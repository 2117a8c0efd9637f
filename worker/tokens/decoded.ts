// The shape shared by the sync decoders and the async verifiers: the reading shown to the
// user plus the bytes a verifier needs, so verification never re-parses the token.
import type { TokenFormat, TokenReading } from '../protocol.js';
import { NO_CLAIMS, type Claims } from './claims.js';

/** How a JWS alg can be checked here. */
export type AlgFamily = 'hmac' | 'none' | 'asymmetric' | 'unknown';

/** What verification needs, per format. Internal: never crosses a boundary. */
export type Material =
  | { kind: 'hmac-sha256'; signingInput: string; mac: Uint8Array<ArrayBuffer> }
  | { kind: 'jws'; alg: string; family: AlgFamily; hs256?: { signingInput: string; mac: Uint8Array<ArrayBuffer> } }
  | { kind: 'jwe'; alg: unknown; enc: unknown }
  | { kind: 'none' };

/** A sync decode result. */
export interface Decoded {
  reading: TokenReading;
  material: Material;
}

/** The 7 public format names, in detection order. */
export const TOKEN_FORMATS: readonly TokenFormat[] = Object.freeze([
  'sdk-hmac-v1', 'jwe', 'jws', 'mac-json', 'base64-json', 'json', 'opaque',
] as const);

export const OPAQUE_NOTE = 'opaque handle: the state lives on the server (fine, and nothing to decode)';

/** Builds a reading with every field in a fixed order (one hidden class on hot paths). */
export function makeReading(
  format: TokenFormat,
  isProtected: boolean,
  payload: unknown,
  claims: Claims = NO_CLAIMS,
  extra?: { header?: Record<string, unknown>; bindTag?: string; note?: string },
): TokenReading {
  const r: TokenReading = {
    format,
    verified: null,
    protected: isProtected,
    payload: payload === undefined ? null : payload,
    expiresAt: claims.expiresAt,
    issuedAt: claims.issuedAt,
    requestBound: claims.requestBound,
    principalBound: claims.principalBound,
  };
  if (extra?.header !== undefined) r.header = extra.header;
  if (extra?.bindTag !== undefined) r.bindTag = extra.bindTag;
  if (extra?.note !== undefined) r.note = extra.note;
  return r;
}

/** Appends a sentence to a reading's note. */
export function addNote(r: TokenReading, note: string): void {
  r.note = r.note === undefined ? note : `${r.note}; ${note}`;
}

/** Token-supplied text for a note: short, so a 1 MB alg cannot flood the UI. */
export function shown(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
