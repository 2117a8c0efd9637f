// The endpoints the page watches: those the user added (kept in storage, read by the service
// worker, told to the relay so it forwards "via relay" calls), those given on the command
// line (`mrtr-inspector --target URL`), and the stdio servers attached to the relay right now
// (`wrap --serve`), re-read every STDIO_POLL_MS.
//
// Hazard: the relay is optional (a static build, `vite dev` without it). Every relay call here
// is best effort: a 404 means "no relay" and is not a fault; only a target that goes via the
// relay needs it, and its calls will say so.
import type { CaptureStore, TargetRecord } from '../../worker/storage/index.js';
import { guarded } from './guarded.js';

export const RELAY_TARGETS = '/relay/api/targets';
/** Targets given to `mrtr-inspector --target` (server/serve/start-targets.ts). */
export const START_TARGETS = '/relay/api/start-targets';
/** How often the page re-reads the relay's attached stdio servers (they come and go with `wrap --serve`). */
export const STDIO_POLL_MS = 1500;

/** A stdio server attached to the relay (`wrap --serve --name <name>`), reached at `url`. */
export interface StdioTarget { id: string; name: string; url: string }

export interface TargetsDeps {
  store: Pick<CaptureStore, 'listTargets' | 'addTarget' | 'removeTarget'>;
  /** Tells the service worker its watch list changed; resolves once it re-read the list. */
  tellServiceWorker: () => Promise<unknown>;
  say: (message: string) => void;
}

export class Targets {
  #list = $state.raw<TargetRecord[]>([]);
  #stdio = $state.raw<StdioTarget[]>([]);
  #mocks = $state.raw<StdioTarget[]>([]);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #disposed = false;
  readonly #deps: TargetsDeps;

  constructor(deps: TargetsDeps) {
    this.#deps = deps;
  }

  /** The watched targets, as stored. */
  get list(): readonly TargetRecord[] { return this.#list; }
  /** Stdio servers attached to the relay right now (re-read every STDIO_POLL_MS). */
  get stdio(): readonly StdioTarget[] { return this.#stdio; }
  /** Mocks the relay serves ("Serve as mock"), each reached through the page's forwarder; re-read with the stdio servers. */
  get mocks(): readonly StdioTarget[] { return this.#mocks; }

  /** Reads the stored targets, then (without waiting) tells the relay, adds the start targets and polls the stdio servers. */
  async start(): Promise<void> {
    this.#list = await this.#deps.store.listTargets();
    void this.#syncRelay(this.#list);
    void this.#addStartTargets();
    void this.#pollStdio();
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Watches `url` (an http(s) MCP endpoint); false, with a notice, when it could not. */
  async add(url: string, viaRelay = false): Promise<boolean> {
    let parsed: URL;
    try {
      parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
    } catch {
      this.#deps.say(`"${url}" is not an http(s) URL; enter the MCP endpoint, e.g. http://localhost:3000/mcp.`);
      return false;
    }
    return guarded(this.#deps.say, async () => {
      await this.#deps.store.addTarget({ url: parsed.href, viaRelay });
      await this.#changed();
    });
  }

  remove(id: string): Promise<boolean> {
    return guarded(this.#deps.say, async () => {
      await this.#deps.store.removeTarget(id);
      await this.#changed();
    });
  }

  async #changed(): Promise<void> {
    const targets = await this.#deps.store.listTargets();
    this.#list = targets;
    // Wait for the service worker to re-read its list, so a call made right after is tapped.
    await this.#deps.tellServiceWorker();
    await this.#syncRelay(targets);
  }

  // The relay forwards only to targets it was told about.
  async #syncRelay(targets: readonly TargetRecord[]): Promise<void> {
    try {
      const res = await fetch(RELAY_TARGETS, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(targets.map((t) => ({ id: t.id, url: t.url }))),
      });
      if (!res.ok && res.status !== 404 && targets.some((t) => t.viaRelay)) {
        this.#deps.say(`The relay refused the target list (HTTP ${res.status}): ${(await res.text()).slice(0, 300)}`);
      }
    } catch {
      // No relay reachable: only "via relay" targets need it, and their calls will say so.
    }
  }

  // A server without start targets (`vite dev`, a static host) answers 404.
  async #addStartTargets(): Promise<void> {
    try {
      const res = await fetch(START_TARGETS, { cache: 'no-store' });
      if (!res.ok) return;
      const body = (await res.json()) as { targets?: { url?: unknown }[] };
      for (const t of body.targets ?? []) {
        if (typeof t.url === 'string' && !this.#list.some((w) => w.url === t.url)) await this.add(t.url);
      }
    } catch {
      // No start targets to add.
    }
  }

  // A page without a relay (static build: 404) stops asking; a relay that is briefly
  // unreachable is asked again.
  async #pollStdio(): Promise<void> {
    let again = true;
    try {
      const res = await fetch(RELAY_TARGETS, { cache: 'no-store' });
      if (res.status === 404) again = false;
      const body = res.ok ? ((await res.json()) as { stdio?: unknown; mocks?: unknown }) : {};
      const next = Array.isArray(body.stdio) ? body.stdio.filter(isStdioTarget) : [];
      if (!sameTargets(next, this.#stdio)) this.#stdio = next;
      const mocks = Array.isArray(body.mocks) ? body.mocks.filter(isStdioTarget) : [];
      if (!sameTargets(mocks, this.#mocks)) this.#mocks = mocks;
    } catch {
      if (this.#stdio.length) this.#stdio = [];
      if (this.#mocks.length) this.#mocks = [];
    }
    if (again && !this.#disposed) this.#timer = setTimeout(() => void this.#pollStdio(), STDIO_POLL_MS);
  }
}

function sameTargets(a: readonly StdioTarget[], b: readonly StdioTarget[]): boolean {
  return a.length === b.length && a.every((t, i) => t.id === b[i].id && t.url === b[i].url);
}

function isStdioTarget(v: unknown): v is StdioTarget {
  const t = v as Partial<StdioTarget> | null;
  return typeof t === 'object' && t !== null && typeof t.id === 'string' && typeof t.name === 'string' && typeof t.url === 'string';
}
