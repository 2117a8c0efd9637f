// Sync format detection and decoding. Runs on every token of a capture (50k+), so each
// check starts with the cheapest test that can reject (dot count, first character) and
// none uses a regex. Detection order is public: sdk-hmac-v1, jwe, jws, mac-json,
// base64-json, json, opaque.
import type { TokenReading } from '../protocol.js';
import { b64JsonObject, decodeBase64, utf8 } from './base64.js';
import { firstNonSpace, parseJsonContainer } from './json-text.js';
import { asRecord, readClaims } from './claims.js';
import { addNote, makeReading, OPAQUE_NOTE, type Decoded } from './decoded.js';
import { inspectJwe, inspectJws } from './inspect-jose.js';

const NO_MATERIAL = { kind: 'none' } as const;
const SDK_PREFIX = 'v1.';
const HMAC_SHA256_BYTES = 32;

/** `v1.<b64url {p, exp, b?}>.<b64url mac>`, as the SDK's createRequestStateCodec mints. */
function inspectSdk(token: string, dot: number): Decoded | null {
  // The SDK splits at the *last* dot and MACs "v1." + everything before it.
  if (dot <= 3) return null;
  const envelope = b64JsonObject(token, 3, dot);
  const mac = decodeBase64(token, 'url', dot + 1);
  if (envelope === null && mac !== null && mac.length === HMAC_SHA256_BYTES) {
    // The SDK shape with a body that no longer decodes: typically a tampered token. Keep
    // the format (and the MAC, so a key reports it as failing) rather than call it opaque.
    const reading = makeReading('sdk-hmac-v1', true, null, readClaims([]), {});
    addNote(reading, 'the body does not decode as the SDK envelope: tampered, truncated or not an SDK token');
    return { reading, material: { kind: 'hmac-sha256', signingInput: token.slice(0, dot), mac } };
  }
  if (envelope === null || !(Object.hasOwn(envelope, 'exp') || Object.hasOwn(envelope, 'p'))) return null;
  const p = Object.hasOwn(envelope, 'p') ? envelope.p : null;
  const b = Object.hasOwn(envelope, 'b') ? envelope.b : undefined;
  const bindTag = typeof b === 'string' ? b : undefined;
  // Envelope first: its exp is the one the SDK enforces, whatever p says.
  const claims = readClaims([envelope, asRecord(p)], bindTag !== undefined);
  const reading = makeReading('sdk-hmac-v1', true, p, claims, { bindTag });
  if (typeof envelope.exp !== 'number') addNote(reading, 'exp is missing or not a number: the SDK rejects this token');
  if (b !== undefined && bindTag === undefined) addNote(reading, 'b is not a string: the SDK rejects this token');
  if (bindTag !== undefined) addNote(reading, 'bind tag present: bound to a per-request value the server derives (often method and principal)');
  if (mac === null) addNote(reading, 'MAC part is not base64url');
  return {
    reading,
    material: { kind: 'hmac-sha256', signingInput: token.slice(0, dot), mac: mac ?? new Uint8Array(0) },
  };
}

/** `b64url(JSON).b64url(HMAC-SHA256 over the first part)`: a 32-byte MAC after one dot. */
function inspectMacJson(token: string, dot: number): Decoded | null {
  const c = token.charCodeAt(0);
  if (c !== 101 && c !== 87) return null; // 'e' ({) or 'W' ([)
  const mac = decodeBase64(token, 'url', dot + 1);
  if (mac === null || mac.length !== HMAC_SHA256_BYTES) return null;
  const bytes = decodeBase64(token, 'url', 0, dot);
  const text = bytes === null ? null : utf8(bytes);
  const payload = text === null ? null : parseJsonContainer(text);
  if (payload === null) return null;
  const reading = makeReading('mac-json', true, payload, readClaims([asRecord(payload)]));
  return { reading, material: { kind: 'hmac-sha256', signingInput: token.slice(0, dot), mac } };
}

/** Standard base64 or base64url of a JSON object or array, e.g. eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0. */
function inspectBase64Json(token: string): Decoded | null {
  // First sextet of '{', '[', ' ', '\t'/'\n', '\r': e, W, I, C, D. Anything else cannot be JSON.
  const c = token.charCodeAt(0);
  if (c !== 101 && c !== 87 && c !== 73 && c !== 67 && c !== 68) return null;
  const bytes = decodeBase64(token, 'either');
  const text = bytes === null ? null : utf8(bytes);
  const payload = text === null ? null : parseJsonContainer(text);
  if (payload === null) return null;
  return { reading: makeReading('base64-json', false, payload, readClaims([asRecord(payload)])), material: NO_MATERIAL };
}

/** The token text is itself a JSON object or array. */
function inspectJson(token: string): Decoded | null {
  const payload = parseJsonContainer(token);
  if (payload === null) return null;
  return { reading: makeReading('json', false, payload, readClaims([asRecord(payload)])), material: NO_MATERIAL };
}

function opaque(note: string = OPAQUE_NOTE): Decoded {
  return { reading: makeReading('opaque', false, null, undefined, { note }), material: NO_MATERIAL };
}

/** Detects the format and decodes what is readable, plus what verification will need. */
export function decodeToken(token: string): Decoded {
  if (typeof token !== 'string') return opaque(`${OPAQUE_NOTE}; not a string`);
  if (token.length === 0) return opaque('empty token');
  // Dot positions, stopping at 5: no supported shape has more than 4 dots.
  const dots: number[] = [];
  for (let i = token.indexOf('.'); i >= 0 && dots.length < 5; i = token.indexOf('.', i + 1)) dots.push(i);
  const n = dots.length;
  let hint: string | undefined;
  if (n === 2 && token.startsWith(SDK_PREFIX)) {
    const d = inspectSdk(token, dots[1]);
    if (d !== null) return d;
    hint = 'it starts like an SDK v1 token, but its body is not a base64url JSON envelope';
  }
  if (n === 4) {
    const d = inspectJwe(token, dots);
    if (d !== null) return d;
  } else if (n === 2) {
    const d = inspectJws(token, dots[0], dots[1]);
    if (d !== null) return d;
  } else if (n === 1) {
    const d = inspectMacJson(token, dots[0]);
    if (d !== null) return d;
  } else if (n === 0) {
    const d = inspectBase64Json(token);
    if (d !== null) return d;
  }
  const c = firstNonSpace(token);
  if (c === 123 || c === 91) {
    const d = inspectJson(token);
    if (d !== null) return d;
  }
  return opaque(hint === undefined ? OPAQUE_NOTE : `${OPAQUE_NOTE}; ${hint}`);
}

/** Sync decode for hot paths: format, header, payload and claims; `verified` is always null. */
export function inspectToken(token: string): TokenReading {
  try {
    return decodeToken(token).reading;
  } catch {
    // Only a bug (or an engine limit) gets here; an unreadable token is still a reading.
    return opaque(`${OPAQUE_NOTE}; decoding failed unexpectedly`).reading;
  }
}
