// Token codecs: recognise a requestState token, decode what is readable, verify with the
// server's keys. Framed as "your server's token": a client must not inspect it, the
// developer of the server may. Runs unchanged in the analysis worker and in Node.

export type { TokenFormat, TokenReading } from '../protocol.js';
// Keys as the user types them (utf-8, hex:…, base64:…), with redacted labels.
export { parseKey, type ParsedKey, type TokenKey } from './keys.js';
// Sync decode for hot paths (verified is always null).
export { inspectToken } from './inspect-token.js';
// Decode + verify (and JWE decrypt) with every configured key; the sync form for hot paths.
export { readToken, readTokenSync } from './read-token.js';
// A host's synchronous HMAC-SHA256 check (the CLI's node:crypto), injected into the above.
export type { HmacSha256Check } from './verify-hmac.js';
// The SDK codec's bind tag, to match a token's `b` against a candidate binding value.
export { sdkBindTag } from './verify-hmac.js';
// The 7 format names in detection order.
export { TOKEN_FORMATS } from './decoded.js';
