// What the Console's state classes need from the page: the analysis worker (with the page's
// fetch registered as the Console's transport), a place to say things, and a hook to run
// after traffic was filed (the session list and the view re-read).
//
// Why the page's fetch: every Console send must be tapped by the service worker like any
// other traffic, so the worker-side stepper calls back into the page (a comlink proxy of
// `fetchTransport`, which is DOM-free model code from worker/console and runs here as is).
import { proxy } from 'comlink';
import { fetchTransport } from '../../worker/console/transport.js';
import type { Analysis } from './analysis-client.js';
import type { Inspector } from './inspector.svelte.js';
import { RELAY_FORWARD } from '../sw/watch-list.js';

export interface ConsoleHost {
  /** The worker, with the transport registered; null before it started. */
  api(): Promise<Analysis | null>;
  say(message: string): void;
  /** After the Console filed traffic (in its own session or a new one). */
  filed(): Promise<void>;
  /** The URL to send to: absolute; a "via relay" target goes through the dev server's relay. */
  endpoint(url: string, viaRelay: boolean): Promise<string | null>;
  /** Switches the devtools to a session (e.g. a replay's). */
  show(session: string): Promise<void>;
}

const registered = new WeakSet<object>();

/** The host over the Inspector: registers the transport once per worker. */
export function hostOf(inspector: Inspector): ConsoleHost {
  return {
    async api() {
      const api = inspector.api;
      if (!api) return null;
      if (!registered.has(api)) {
        registered.add(api);
        await api.consoleTransport(proxy(fetchTransport({ timeoutMs: 60_000 })));
      }
      return api;
    },
    say: (m) => inspector.say(m),
    async filed() {
      await inspector.loadSessions();
      await inspector.refresh();
    },
    async endpoint(url, viaRelay) {
      let abs: URL;
      try {
        abs = new URL(url, location.href);
        if (abs.protocol !== 'http:' && abs.protocol !== 'https:') throw new Error('not http');
      } catch {
        inspector.say(`"${url}" is not an http(s) URL; enter the MCP endpoint, e.g. http://localhost:3000/mcp or /demo/mcp.`);
        return null;
      }
      const own = abs.origin === location.origin && abs.pathname === '/demo/mcp';
      if (own && !viaRelay) return abs.href;
      // Watched, so the service worker taps it; via the relay for servers without CORS.
      const key = abs.origin + abs.pathname;
      const known = inspector.targets.find((t) => t.url === abs.href && t.viaRelay === viaRelay);
      if (!known && !(await inspector.addTarget(abs.href, viaRelay))) return null;
      const t = inspector.targets.find((x) => x.url === abs.href);
      if (!t) return null;
      return viaRelay ? new URL(`${RELAY_FORWARD}${encodeURIComponent(t.id)}`, location.href).href : key + abs.search;
    },
    show: (session) => inspector.viewSession(session),
  };
}
