// Verification keys, one per server (origin + path of the MCP endpoint). Kept in the
// worker's memory; only a key the user asked to remember is written to IndexedDB settings.
// Hazard: a key is a secret. It never leaves this module except to verify a token or to be
// redacted from an export: no getter returns key text, and error messages never quote it.
import { encodeBase64Url, utf8 } from '../tokens/base64.js';
import { parseKey, type TokenKey } from '../tokens/index.js';

export { serverOf } from '../tokens/server-of.js';

interface Entry {
  text: string;
  key: TokenKey;
  remembered: boolean;
  builtIn: boolean;
}


/**
 * The spellings of a key that traffic may carry, for redaction: as typed, without its
 * prefix (`hex:`, `base64:`, `utf8:` …: a server echoing its key never writes ours), and its
 * bytes as UTF-8 text, hex in either case, base64 and base64url with and without padding.
 * Derived spellings under 8 characters are left out: they would redact ordinary text.
 */
function spellingsOf(e: Entry): string[] {
  const out = new Set<string>([e.text]);
  const add = (s: string | null) => { if (s !== null && s.length >= 8) out.add(s); };
  const colon = e.text.indexOf(':');
  if (colon > 0 && colon <= 9) add(e.text.slice(colon + 1).trim());
  const bytes = e.key.bytes;
  add(utf8(bytes));
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  add(hex);
  add(hex.toUpperCase());
  const url = encodeBase64Url(bytes);
  const std = url.replace(/-/g, '+').replace(/_/g, '/');
  const pad = '='.repeat((4 - (url.length % 4)) % 4);
  for (const s of [url, url + pad, std, std + pad]) add(s);
  return [...out];
}

export class Keyring {
  readonly #byServer = new Map<string, Entry>();
  /** Bumped on every change, so cached analyses know to re-verify. */
  version = 0;

  /** Sets (or, with empty text, removes) the key for a server. Errors never contain the key. */
  set(server: string, text: string, opts: { remembered?: boolean; builtIn?: boolean } = {}): { ok: true } | { ok: false; error: string } {
    if (text === '') {
      this.#byServer.delete(server);
      this.version += 1;
      return { ok: true };
    }
    const parsed = parseKey(text);
    if (!parsed.ok) return { ok: false, error: `That key could not be read (${parsed.error.replaceAll(text, '…')}). Enter it as UTF-8 text, hex:… or base64:….` };
    this.#byServer.set(server, { text, key: parsed.key, remembered: opts.remembered ?? false, builtIn: opts.builtIn ?? false });
    this.version += 1;
    return { ok: true };
  }

  has(server: string): boolean {
    return this.#byServer.has(server);
  }

  /** The keys to try on a token minted by `server`. */
  keysFor(server: string): TokenKey[] {
    const e = this.#byServer.get(server);
    return e ? [e.key] : [];
  }

  /** Key texts in every spelling traffic may carry them, only for redacting them from exports. */
  secretsForRedaction(): string[] {
    return [...new Set([...this.#byServer.values()].filter((e) => !e.builtIn).flatMap(spellingsOf))];
  }

  /** What the page may know: which servers have a key, never the key. */
  list(): { server: string; remembered: boolean; builtIn: boolean }[] {
    return [...this.#byServer].map(([server, e]) => ({ server, remembered: e.remembered, builtIn: e.builtIn }));
  }

  /** The remembered entries, for the settings store. */
  remembered(): { server: string; text: string }[] {
    return [...this.#byServer].filter(([, e]) => e.remembered && !e.builtIn).map(([server, e]) => ({ server, text: e.text }));
  }
}
