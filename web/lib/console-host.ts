// What the Console's state classes need from the page: the analysis worker (with the page's
// fetch registered as the Console's transport), a place to say things, and a hook to run
// after traffic was filed (the session list and the view re-read).
//
// Why the page's fetch: every Console send must be tapped by the service worker like any
// other traffic, so the worker-side stepper calls back into the page (a comlink proxy of
// `fetchTransport`, which is DOM-free model code from worker/console and runs here as is).
//
// Stored once: the worker saves each send's record as pending, and the send names it in the
// link header, which the tap reads, strips and fills that record in under; the transport
// tells the worker whether the tap took it (`tapped`), and the worker stores its own copy
// only when not. Nothing waits for the tap. The page adds the header only when the tap will
// see it (see `tapHooks`).
import { proxy } from 'comlink';
import { fetchTransport, type TapHooks } from '../../worker/console/transport.js';
import { CaptureStore } from '../../worker/storage/index.js';
import type { Analysis } from './analysis-client.js';
import type { Inspector } from './inspector.svelte.js';
import { RELAY_FORWARD, WatchList } from '../sw/watch-list.js';
import { sendConsent } from './send-consent.js';

export interface ConsoleHost {
  /** The worker, with the transport registered; null before it started. */
  api(): Promise<Analysis | null>;
  say(message: string): void;
  /** After the Console filed traffic (in its own session or a new one). */
  filed(): Promise<void>;
  /**
   * The URL to send to: absolute; a "via relay" target goes through the dev server's relay.
   * Judged first (send-consent.ts). `fromCapture` (re-send, edit): a URL from a capture is
   * never added to the watched targets on its own.
   */
  endpoint(url: string, viaRelay: boolean, fromCapture?: boolean): Promise<string | null>;
  /** Switches the devtools to a session (e.g. a replay's). */
  show(session: string): Promise<void>;
  /** Selects a conversation of a session (a replay outcome's recorded call). */
  select(session: string, conversation: string): Promise<void>;
}

const registered = new WeakSet<object>();

/**
 * The page's knowledge of its capture service worker, for linked sends.
 *
 * `taps`: a service worker controls the page and its watch list (re-read from IndexedDB,
 * the list the service worker reads) covers the URL, with recording on. Without a
 * controller the header would reach the server, and cross-origin it would make the request
 * need a CORS preflight; so no controller, no header (the worker keeps the copy). The page
 * and the service worker read the same list; the page waits for the worker's ack after each
 * change (Targets.add), so they disagree only while a change is in flight.
 */
export function tapHooks(origin: string): TapHooks {
  let store: CaptureStore | null = null;
  return {
    async taps(url) {
      if (!navigator.serviceWorker?.controller) return false;
      const list = new WatchList((store ??= new CaptureStore()), origin);
      await list.load();
      return list.match(new URL(url, origin)) === true;
    },
  };
}

/** The host over the Inspector: registers the transport once per worker. */
export function hostOf(inspector: Inspector): ConsoleHost {
  let hooks: TapHooks | null = null;
  return {
    async api() {
      const api = inspector.api;
      if (!api) return null;
      if (!registered.has(api)) {
        registered.add(api);
        hooks ??= tapHooks(location.origin);
        // Every Console send is judged here before it leaves (send-guard.ts).
        const guard = (url: string) => {
          const refusal = sendConsent(url, inspector.targets.list);
          if (refusal) inspector.say(refusal);
          return refusal;
        };
        await api.console.transport(proxy(fetchTransport({ timeoutMs: 60_000, tap: hooks, guard })));
      }
      return api;
    },
    say: (m) => inspector.say(m),
    async filed() {
      await inspector.sessions.load();
      await inspector.sessions.refresh();
    },
    async endpoint(url, viaRelay, fromCapture = false) {
      let abs: URL;
      try {
        abs = new URL(url, location.href);
        if (abs.protocol !== 'http:' && abs.protocol !== 'https:') throw new Error('not http');
      } catch {
        inspector.say(`"${url}" is not an http(s) URL; enter the MCP endpoint, e.g. http://localhost:3000/mcp or /demo/mcp.`);
        return null;
      }
      const refusal = sendConsent(abs.href, inspector.targets.list);
      if (refusal) {
        inspector.say(refusal);
        return null;
      }
      const own = abs.origin === location.origin && abs.pathname === '/demo/mcp';
      if (own && !viaRelay) return abs.href;
      // Watched, so the service worker taps it; via the relay for servers without CORS.
      const key = abs.origin + abs.pathname;
      const known = inspector.targets.list.find((t) => t.url === abs.href && t.viaRelay === viaRelay);
      if (!known && fromCapture) {
        // A capture's URL does not become a watched target by being re-sent.
        if (viaRelay) {
          inspector.say(`Not sent: ${abs.host} is not a watched target, so the relay cannot forward to it. Add it in the Targets list first if you trust it.`);
          return null;
        }
        return abs.href;
      }
      if (!known && !(await inspector.targets.add(abs.href, viaRelay))) return null;
      const t = inspector.targets.list.find((x) => x.url === abs.href);
      if (!t) return null;
      return viaRelay ? new URL(`${RELAY_FORWARD}${encodeURIComponent(t.id)}`, location.href).href : key + abs.search;
    },
    show: (session) => inspector.sessions.show(session),
    select: (session, conversation) => inspector.sessions.showConversation(session, conversation),
  };
}
