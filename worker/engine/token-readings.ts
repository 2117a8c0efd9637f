// The engine's token readings: one per token and issuing URL, read with that URL's keys and
// kept until the keys change. A reading is synchronous when it can be (HMAC through an
// injected check, plain payloads); the rest (JWS, JWE through WebCrypto) is awaited in one
// batch before lint asks for it.
//
// Hot path: rules ask for readings many times per conversation. They are filed by URL,
// then by token (two lookups of strings whose hashes V8 keeps), not under one joined
// key, which would build and hash a new ~200-character string on every ask.
import type { Conversation, TokenReading } from '../protocol.js';
import { readToken, readTokenSync, type HmacSha256Check, type TokenKey } from '../tokens/index.js';

export class TokenReadings {
  /** URL → token → reading. */
  readonly #byUrl = new Map<string, Map<string, TokenReading>>();
  /** token → `urlOf(token)`, until the analysis places tokens anew (`placementsChanged`). */
  readonly #urls = new Map<string, string>();
  #keysFor: (url: string) => readonly TokenKey[];
  readonly #hmac: HmacSha256Check | undefined;

  /** `urlOf`: the URL a token is read for (where the analysis places it), '' when nowhere;
   *  asked once per token until `placementsChanged`. */
  constructor(readonly urlOf: (token: string) => string, keysFor: (url: string) => readonly TokenKey[], hmac: HmacSha256Check | undefined) {
    this.#keysFor = keysFor;
    this.#hmac = hmac;
  }

  /** Threading changed: a token may now be placed in another exchange, with another URL. */
  placementsChanged(): void {
    this.#urls.clear();
  }

  /** New keys: every token is read again. */
  setKeys(keysFor: (url: string) => readonly TokenKey[]): void {
    this.#keysFor = keysFor;
    this.#byUrl.clear();
  }

  /** Reads every token not read yet for its URL, awaiting those that cannot be read at once. */
  async readAll(tokens: Iterable<string>): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const t of tokens) {
      const url = this.#urlOf(t);
      const read = this.#readingsFor(url);
      if (read.has(t)) continue;
      const keys = this.#keysFor(url);
      const now = readTokenSync(t, keys, this.#hmac);
      if (now !== undefined) read.set(t, now);
      // Filed where it was asked for: keys set meanwhile dropped that map, so a reading made
      // with the old keys is never filed under the new ones.
      else pending.push(readToken(t, keys, this.#hmac).then((r) => void read.set(t, r)));
    }
    await Promise.all(pending);
  }

  /** The reading of `token` for its URL: read now if it can be, else as `readAll` left it. */
  reading(token: string): TokenReading | undefined {
    const url = this.#urlOf(token);
    const read = this.#readingsFor(url);
    let r = read.get(token);
    if (r === undefined) {
      r = readTokenSync(token, this.#keysFor(url), this.#hmac);
      if (r !== undefined) read.set(token, r);
    }
    return r;
  }

  /** Every token of `convs` that has a reading, in first-seen order: issued ones first, then
   *  sent ones (the order the batch analysis lists them in). */
  inOrder(convs: readonly Conversation[]): Map<string, TokenReading> {
    const out = new Map<string, TokenReading>();
    const put = (t: string | null) => {
      if (t === null || out.has(t)) return;
      const r = this.reading(t);
      if (r !== undefined) out.set(t, r);
    };
    for (const c of convs) for (const r of c.rounds) put(r.stateIssued);
    for (const c of convs) for (const r of c.rounds) put(r.stateSent);
    return out;
  }

  #urlOf(token: string): string {
    let url = this.#urls.get(token);
    if (url === undefined) this.#urls.set(token, (url = this.urlOf(token)));
    return url;
  }

  #readingsFor(url: string): Map<string, TokenReading> {
    let m = this.#byUrl.get(url);
    if (m === undefined) this.#byUrl.set(url, (m = new Map()));
    return m;
  }
}
