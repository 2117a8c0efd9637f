// Shared keys and minting helpers for the token codec tests. Tests run in Node, so Buffer
// is fine here (the codecs themselves must not use it).
import { parseKey, type TokenKey } from '../../../worker/tokens/index.js';

export function key(text: string): TokenKey {
  const r = parseKey(text);
  if (!r.ok) throw new Error(`test key did not parse: ${r.error}`);
  return r.key;
}

// The demo key is public by design (worker/demo-key.ts); the others are test-only.
export const DEMO_KEY_TEXT = 'mrtr-inspector-demo-key-not-a-secret-0001';
export const RIGHT = key(DEMO_KEY_TEXT);
export const WRONG = key('some-other-server-key-that-is-long-enough');
export const AES_RIGHT = key('hex:' + '4f'.repeat(32));
export const AES_WRONG = key('hex:' + 'a0'.repeat(32));

export const b64url = (s: string | Uint8Array): string => Buffer.from(s).toString('base64url');
export const b64 = (s: string | Uint8Array): string => Buffer.from(s).toString('base64');
export const fromB64url = (s: string): string => Buffer.from(s, 'base64url').toString('utf8');

/** `b64url(JSON) + "." + b64url(HMAC-SHA256(key, first part))`, minted with WebCrypto. */
export async function mintMacJson(payload: unknown, k: TokenKey): Promise<string> {
  return mintMacJsonText(JSON.stringify(payload), k);
}

async function hmacSha256(k: TokenKey, data: string): Promise<string> {
  const ck = await crypto.subtle.importKey('raw', new Uint8Array(k.bytes), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return b64url(new Uint8Array(await crypto.subtle.sign('HMAC', ck, new TextEncoder().encode(data))));
}

/** mac-json over JSON text given verbatim (for payloads JSON.stringify cannot build). */
export async function mintMacJsonText(json: string, k: TokenKey): Promise<string> {
  const body = b64url(json);
  return `${body}.${await hmacSha256(k, body)}`;
}

/** An SDK-format token over an envelope given verbatim, MACed as the SDK does ("v1." + body). */
export async function mintSdkText(envelope: string, k: TokenKey): Promise<string> {
  const signed = `v1.${b64url(envelope)}`;
  return `${signed}.${await hmacSha256(k, signed)}`;
}

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The token with the char at `i` replaced so its top sextet bit flips: the decoded bytes
 * always change (swapping only the low bits of a final char might not change any byte).
 */
export function flipChar(token: string, i: number): string {
  const v = URL_ALPHABET.indexOf(token[i]);
  if (v < 0) return token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
  return token.slice(0, i) + URL_ALPHABET[v ^ 32] + token.slice(i + 1);
}

/** Nested arrays `depth` deep: `[[[…]]]`. */
export function deepArray(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}
