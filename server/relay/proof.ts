// The inspector proves it is the developer's own before `wrap` sends it anything: `wrap`
// sends a fresh nonce to `GET /relay/proof?nonce=…`, and only a server that knows the key
// from the 0600 info file (info-file.ts) can answer HMAC-SHA256(key, nonce). A squatter on
// the port (the inspector stopped, another user bound it) sees a nonce and nothing it can
// answer, and gets neither the relay token nor a record.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The inspector's answer path. */
export const PROOF_PATH = '/relay/proof';
/** The query parameter that carries the nonce. */
export const NONCE_PARAM = 'nonce';

// Domain-separated so the key's answers can never be used for anything else.
const LABEL = 'mrtr-inspector proof v1\n';

/** A fresh proof key or nonce (base64url, 256 bits). */
export function freshSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The answer to `nonce` under `key`. */
export function proofFor(key: string, nonce: string): string {
  return createHmac('sha256', key).update(LABEL + nonce).digest('base64url');
}

/** True when `answer` is the answer to `nonce` under `key` (constant time). */
export function proofMatches(key: string, nonce: string, answer: string): boolean {
  const want = Buffer.from(proofFor(key, nonce));
  const got = Buffer.from(answer);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** A nonce is 16-128 base64url characters; anything else is refused before any work. */
export function validNonce(nonce: string | null): nonce is string {
  return nonce !== null && /^[A-Za-z0-9_-]{16,128}$/.test(nonce);
}
