// HMAC-SHA256 checks for sdk-hmac-v1 and mac-json, and the SDK's bind tag. Every MAC
// comparison goes through crypto.subtle.verify, or through a host's injected HmacSha256Check,
// both constant-time; comparing MAC bytes or strings in JS (===, a loop) would leak timing
// to whoever submits tokens.
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

/**
 * A synchronous HMAC-SHA256 check a host may inject: true when HMAC-SHA256(key, data)
 * equals `mac`. The CLI passes one built on node:crypto (~2 µs a check, where WebCrypto's
 * promise round trip costs ~18 µs in Node); the browser keeps WebCrypto. Hazard: it must
 * compare in constant time (node:crypto's timingSafeEqual), and must not keep `data`.
 * This folder never imports Node modules, hence the injection.
 */
export type HmacSha256Check = (key: Uint8Array, data: Uint8Array, mac: Uint8Array) => boolean;

/** verifyHmacSha256 through an injected synchronous check: the same verdicts and messages. */
export function verifyHmacSha256Sync(signingInput: string, mac: Uint8Array, keys: readonly TokenKey[], check: HmacSha256Check): KeyCheck {
  const data = utf8Bytes(signingInput);
  let unusable = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    // WebCrypto refuses to import an empty HMAC key; count it as unusable here too.
    if (!isTokenKey(key) || key.bytes.length === 0) {
      unusable++;
      continue;
    }
    if (check(key.bytes, data, mac)) return { verified: true, keyIndex: i };
  }
  return failure(mac, keys.length, unusable);
}

function failure(mac: Uint8Array, keys: number, unusable: number): KeyCheck {
  const why = mac.length !== 32 ? ` (the MAC is ${mac.length} bytes; HMAC-SHA256 gives 32)` : '';
  const skipped = unusable > 0 ? `; ${unusable} of them could not be used as an HMAC key` : '';
  return { verified: false, verifyError: `MAC does not match ${keysPhrase(keys)}${why}${skipped}` };
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
  return failure(mac, keys.length, unusable);
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
