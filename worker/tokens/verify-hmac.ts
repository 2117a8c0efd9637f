// HMAC-SHA256 checks for sdk-hmac-v1 and mac-json, and the SDK's bind tag. Every MAC
// comparison goes through crypto.subtle.verify, which is constant-time; comparing MAC
// bytes or strings in JS (===, a loop) would leak timing to whoever submits tokens.
import { encodeBase64Url, utf8Bytes } from './base64.js';
import { hmacKey, isTokenKey, type SubtleKey, type TokenKey } from './keys.js';

/** Outcome of checking one token against the key list. */
export interface KeyCheck {
  verified: boolean;
  keyIndex?: number;
  verifyError?: string;
}

/** "the configured key" / "any of the 3 configured keys", for error messages. */
export function keysPhrase(n: number): string {
  return n === 1 ? 'the configured key' : `any of the ${n} configured keys`;
}

/** Tries each key in order; the first whose HMAC-SHA256 over `signingInput` equals `mac` wins. */
export async function verifyHmacSha256(signingInput: string, mac: Uint8Array<ArrayBuffer>, keys: readonly TokenKey[]): Promise<KeyCheck> {
  const data = utf8Bytes(signingInput);
  let unusable = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!isTokenKey(key)) {
      unusable++;
      continue;
    }
    let ck: SubtleKey;
    try {
      ck = await hmacKey(key, 'SHA-256');
    } catch {
      unusable++;
      continue;
    }
    if (await crypto.subtle.verify('HMAC', ck, mac, data)) return { verified: true, keyIndex: i };
  }
  const why = mac.length !== 32 ? ` (the MAC is ${mac.length} bytes; HMAC-SHA256 gives 32)` : '';
  const skipped = unusable > 0 ? `; ${unusable} of them could not be used as an HMAC key` : '';
  return { verified: false, verifyError: `MAC does not match ${keysPhrase(keys.length)}${why}${skipped}` };
}

const BIND_LABEL = 'mcp.requestState.bind:';

/**
 * The SDK codec's bind tag for `value`: b64url of the first 16 bytes of
 * HMAC-SHA256(key, "mcp.requestState.bind:" + value). Compare the result to a reading's
 * bindTag to see which binding value a token was minted under. Rejects only when `key`
 * is not a usable key (empty or not a TokenKey): a caller bug, not token data.
 */
export async function sdkBindTag(key: TokenKey, value: string): Promise<string> {
  if (!isTokenKey(key)) throw new TypeError('sdkBindTag needs a TokenKey from parseKey()');
  const ck = await hmacKey(key, 'SHA-256');
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', ck, utf8Bytes(BIND_LABEL + String(value))));
  return encodeBase64Url(mac.subarray(0, 16));
}
