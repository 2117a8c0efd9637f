// Verification keys, one per server (origin + path of the MCP endpoint). Kept in the
// worker's memory; only a key the user asked to remember is written to IndexedDB settings.
// Hazard: a key is a secret. It never leaves this module except to verify a token or to be
// redacted from an export: no getter returns key text, and error messages never quote it.
import { parseKey, type TokenKey } from '../tokens/index.js';

interface Entry {
  text: string;
  key: TokenKey;
  remembered: boolean;
  builtIn: boolean;
}

/** Origin + path without query, hash or trailing slash: what a key is entered for. */
export function serverOf(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : u.pathname;
    return u.origin + path;
  } catch {
    return url;
  }
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

  /** Key texts, only for redacting them from exports. */
  secretsForRedaction(): string[] {
    return [...this.#byServer.values()].filter((e) => !e.builtIn).map((e) => e.text);
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
