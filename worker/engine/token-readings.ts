// The engine's token readings: one per token and issuing URL, read with that URL's keys and
// kept until the keys change. A reading is synchronous when it can be (HMAC through an
// injected check, plain payloads); the rest (JWS, JWE through WebCrypto) is awaited in one
// batch before lint asks for it.
import type { TokenReading } from '../protocol.js';
import { readToken, readTokenSync, type HmacSha256Check, type TokenKey } from '../tokens/index.js';

export class TokenReadings {
  readonly #byKey = new Map<string, TokenReading>();
  #keysFor: (url: string) => readonly TokenKey[];
  readonly #hmac: HmacSha256Check | undefined;

  /** `urlOf`: the URL a token is read for (where the analysis places it), '' when nowhere. */
  constructor(readonly urlOf: (token: string) => string, keysFor: (url: string) => readonly TokenKey[], hmac: HmacSha256Check | undefined) {
    this.#keysFor = keysFor;
    this.#hmac = hmac;
  }

  /** New keys: every token is read again. */
  setKeys(keysFor: (url: string) => readonly TokenKey[]): void {
    this.#keysFor = keysFor;
    this.#byKey.clear();
  }

  /** Reads every token not read yet for its URL, awaiting those that cannot be read at once. */
  async readAll(tokens: Iterable<string>): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const t of tokens) {
      const url = this.urlOf(t);
      const k = `${url}\n${t}`;
      if (this.#byKey.has(k)) continue;
      const keys = this.#keysFor(url);
      const now = readTokenSync(t, keys, this.#hmac);
      if (now !== undefined) this.#byKey.set(k, now);
      else pending.push(readToken(t, keys, this.#hmac).then((r) => void this.#byKey.set(k, r)));
    }
    await Promise.all(pending);
  }

  /** The reading of `token` for its URL: read now if it can be, else as `readAll` left it. */
  reading(token: string): TokenReading | undefined {
    const url = this.urlOf(token);
    const k = `${url}\n${token}`;
    let r = this.#byKey.get(k);
    if (r === undefined) {
      r = readTokenSync(token, this.#keysFor(url), this.#hmac);
      if (r !== undefined) this.#byKey.set(k, r);
    }
    return r;
  }
}
