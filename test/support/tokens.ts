// Minting requestState tokens for tests, the way servers do (Node crypto, test-only).
import { createHmac } from 'node:crypto';

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** Unprotected base64url JSON, like the spec's own examples. */
export function b64Json(payload: unknown): string {
  return b64url(JSON.stringify(payload));
}

/** The SDK's createRequestStateCodec format: v1.<b64url {p, exp, b?}>.<b64url HMAC-SHA256>. */
export function sdkToken(key: string, payload: unknown, expSeconds: number, bind?: string): string {
  const envelope: Record<string, unknown> = { p: payload, exp: expSeconds };
  if (bind !== undefined) {
    envelope.b = b64url(createHmac('sha256', key).update('mcp.requestState.bind:' + bind).digest().subarray(0, 16));
  }
  const body = b64url(JSON.stringify(envelope));
  return `v1.${body}.${b64url(createHmac('sha256', key).update('v1.' + body).digest())}`;
}

/** A compact JWS signed with HS256. */
export function jwsHs256(key: string, claims: Record<string, unknown>): string {
  const input = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${b64url(createHmac('sha256', key).update(input).digest())}`;
}

/** Seconds since the epoch for an epoch-ms time. */
export function unix(ms: number): number {
  return Math.floor(ms / 1000);
}
