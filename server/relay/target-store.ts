import { readPrivateSync, replacePrivateSync } from './private-files.js';

/** A watched target as the page knows it: an id and the MCP endpoint URL. */
export interface RelayTarget {
  id: string;
  url: string;
  /** True for the embedded demo server, which is always present and cannot be removed. */
  builtin?: boolean;
}

/** The id of the embedded demo server's target. */
export const DEMO_TARGET_ID = 'demo';

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_TARGETS = 500;

/** A checked target list, or why it was refused. */
export type TargetListResult = { ok: true; targets: RelayTarget[] } | { ok: false; error: string };

// Checks a posted target list: `[{ id, url }]` or `{ targets: [...] }`; http(s) URLs only,
// ids usable as one URL path segment. Pure, so the page's mistakes become clear messages.
export function parseTargetList(input: unknown): TargetListResult {
  // `{ targets }` and nothing else: a JSON-RPC body that happens to carry a `targets` key
  // (a captured request re-sent here) is not a target list.
  const wrapped = typeof input === 'object' && input !== null && !Array.isArray(input) && Object.keys(input).length === 1 ? (input as { targets?: unknown }).targets : undefined;
  const list = Array.isArray(input) ? input : wrapped;
  if (!Array.isArray(list)) return { ok: false, error: 'Expected a JSON array of { id, url } (or { "targets": [...] } with no other key).' };
  if (list.length > MAX_TARGETS) return { ok: false, error: `Too many targets (${list.length}); the relay keeps at most ${MAX_TARGETS}.` };
  const out: RelayTarget[] = [];
  const seen = new Set<string>([DEMO_TARGET_ID]);
  for (const [i, item] of list.entries()) {
    const { id, url } = (item ?? {}) as { id?: unknown; url?: unknown };
    if (id === DEMO_TARGET_ID) continue; // the page may echo the built-in back; it is ours
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
      return { ok: false, error: `Target ${i}: id must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.` };
    }
    if (seen.has(id)) return { ok: false, error: `Target ${i}: duplicate id "${id}".` };
    let parsed: URL;
    try {
      parsed = new URL(String(url));
    } catch {
      return { ok: false, error: `Target "${id}": url is not an absolute URL.` };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return { ok: false, error: `Target "${id}": only http: and https: URLs can be relayed.` };
    }
    if (parsed.username || parsed.password) {
      return { ok: false, error: `Target "${id}": put credentials in headers, not in the URL.` };
    }
    seen.add(id);
    out.push({ id, url: parsed.href });
  }
  return { ok: true, targets: out };
}

// The watched targets the page posted, persisted as JSON beside the capture file so they
// survive restarts (external clients may reconnect before any page has opened again).
export class TargetStore {
  #file: string;
  #targets: RelayTarget[] = [];

  constructor(file: string, warn: (message: string) => void) {
    this.#file = file;
    try {
      const result = parseTargetList(JSON.parse(readPrivateSync(file)));
      if (result.ok) this.#targets = result.targets;
      else warn(`Ignoring saved relay targets in ${file}: ${result.error}`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warn(`Ignoring saved relay targets in ${file}: ${(err as Error).message}`);
    }
  }

  get file(): string {
    return this.#file;
  }

  /** Every target, the built-in demo first; `demoUrl` is how the caller reaches the demo. */
  list(demoUrl: string): RelayTarget[] {
    return [{ id: DEMO_TARGET_ID, url: demoUrl, builtin: true }, ...this.#targets];
  }

  /** A user-added target by id (the demo is resolved by the caller). */
  get(id: string): RelayTarget | undefined {
    return this.#targets.find((t) => t.id === id);
  }

  /** Replaces the list wholesale and saves it (write to a temp file, then rename: atomic). */
  replace(targets: RelayTarget[]): void {
    this.#targets = targets;
    replacePrivateSync(this.#file, JSON.stringify(targets, null, 2) + '\n');
  }
}
