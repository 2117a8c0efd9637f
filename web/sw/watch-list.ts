// Which requests the tap records. The list lives in IndexedDB; this is only a cache,
// because the service worker can be stopped at any moment and wakes with empty memory.
import type { CaptureStore, TargetRecord } from '../../worker/storage/index.js';

/** The app's own Console endpoint, always watched. */
export const CONSOLE_PATH = '/demo/mcp';
/** Where the page calls a "via relay" target: this prefix + the target's id. */
export const RELAY_FORWARD = '/relay/api/forward/';

/** The relay's page API (events, backlog, targets, info), the forwarder aside. */
export const RELAY_PAGE_API = '/relay/api/';

/**
 * True for the page's own calls to the relay's page API: never tapped, and never proxied.
 * Hazard: before the watch list is loaded, a GET asking for an event stream waits for it
 * and then goes out through `fetch` in the worker; for the page's relay event stream,
 * open as long as the page is, that would keep the worker busy for good, and the browser
 * lets no new worker version take over while the old one has a stream in flight.
 */
export function isRelayPageApi(url: URL, origin: string): boolean {
  return url.origin === origin && url.pathname.startsWith(RELAY_PAGE_API) && !url.pathname.startsWith(RELAY_FORWARD);
}

/** Origin + path, without query, hash or trailing slash: what a target URL names. */
export function endpointKey(url: URL): string {
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return url.origin + path;
}

export class WatchList {
  #keys: Set<string> | null = null;
  /** "Via relay" targets: id → the target's own URL. */
  #relayed = new Map<string, string>();
  /** The record toggle is off: nothing is tapped, not even the Console. */
  #paused = false;
  #loading: Promise<void> | null = null;
  readonly #store: CaptureStore;
  readonly #origin: string;

  constructor(store: CaptureStore, origin: string) {
    this.#store = store;
    this.#origin = origin;
  }

  /**
   * true / false when the list is in memory; null when it is not (the worker just woke or
   * was told the list changed), and the caller must `load()` before deciding.
   */
  match(url: URL): boolean | null {
    if (!this.#keys) return null;
    if (this.#paused) return false;
    if (url.origin === this.#origin && url.pathname === CONSOLE_PATH) return true;
    if (this.#keys.has(endpointKey(url))) return true;
    return url.origin === this.#origin && this.#isRelayed(url);
  }

  /** Reads the list from IndexedDB (one read shared by concurrent callers). */
  load(): Promise<void> {
    this.#loading ??= Promise.all([this.#store.listTargets(), this.#store.getSetting('recording')]).then(
      ([targets, recording]) => {
        this.#paused = recording === false;
        this.#set(targets);
        this.#loading = null;
      },
      (err: unknown) => {
        this.#loading = null;
        throw err;
      },
    );
    return this.#loading;
  }

  /** Forgets the cache; the next request re-reads it. */
  invalidate(): void {
    this.#keys = null;
    this.#loading = null;
  }

  #set(targets: TargetRecord[]): void {
    const keys = new Set<string>();
    const relayed = new Map<string, string>();
    for (const t of targets) {
      try {
        keys.add(endpointKey(new URL(t.url)));
        if (t.viaRelay) relayed.set(t.id, t.url);
      } catch {
        // A malformed URL in storage matches nothing.
      }
    }
    this.#keys = keys;
    this.#relayed = relayed;
  }

  // The page reaches a "via relay" target through the dev server's relay at
  // /relay/api/forward/<target id> (server/relay/page-api.ts); those calls are tapped too.
  #isRelayed(url: URL): boolean {
    return this.#relayedTarget(url) !== null;
  }

  #relayedTarget(url: URL): string | null {
    if (this.#relayed.size === 0 || !url.pathname.startsWith(RELAY_FORWARD)) return null;
    try {
      return this.#relayed.get(decodeURIComponent(url.pathname.slice(RELAY_FORWARD.length))) ?? null;
    } catch {
      return null;
    }
  }

  /**
   * The URL to record for a request: a call through the relay's forwarder is recorded with
   * its target's own URL (what the user's client talks to, whose keys and findings it is),
   * not /relay/api/forward/<id>; any other URL as it is.
   */
  recordedUrl(raw: string): string {
    try {
      const url = new URL(raw);
      return url.origin === this.#origin ? (this.#relayedTarget(url) ?? raw) : raw;
    } catch {
      return raw;
    }
  }
}
