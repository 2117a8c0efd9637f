// What the Console's state classes need from the page: the analysis worker (with the page's
// fetch registered as the Console's transport), a place to say things, and a hook to run
// after traffic was filed (the session list and the view re-read).
//
// Why the page's fetch: every Console send must be tapped by the service worker like any
// other traffic, so the worker-side stepper calls back into the page (a comlink proxy of
// `fetchTransport`, which is DOM-free model code from worker/console and runs here as is).
//
// Stored once (issue 5): each send names its record in the link header, which the tap
// reads, strips and files the send under; the transport tells the worker whether the tap
// took it and stored it (`tapped`), and the worker stores its own copy only when not. The
// page adds the header only when the tap will see it (see `tapHooks`).
import { proxy } from 'comlink';
import { fetchTransport, type TapHooks, type TapWatch } from '../../worker/console/transport.js';
import { CaptureStore } from '../../worker/storage/index.js';
import type { Analysis } from './analysis-client.js';
import type { Inspector } from './inspector.svelte.js';
import { CAPTURE_CHANNEL, type CaptureNotice } from '../sw/messages.js';
import { RELAY_FORWARD, WatchList } from '../sw/watch-list.js';

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

/**
 * The page's knowledge of its capture service worker, for linked sends.
 *
 * `taps`: a service worker controls the page and its watch list (re-read from IndexedDB,
 * the list the service worker reads) covers the URL, with recording on. Without a
 * controller the header would reach the server, and cross-origin it would make the request
 * need a CORS preflight; so no controller, no header (the worker keeps the copy). The page
 * and the service worker read the same list; the page waits for the worker's ack after each
 * change (Inspector.addTarget), so they disagree only while a change is in flight.
 *
 * `watch`: the tap's notices on the capture channel. Race, written down: the tap writes the
 * record's end right after the answer's body ends, which can be before the page's fetch has
 * resolved, and a BroadcastChannel keeps nothing for late listeners; so each send registers
 * its id BEFORE fetching (fetchTransport calls `watch` first). `exchange-end` means the last
 * write committed, a finished `exchange-unsaved` that the page holds it; a storage error for
 * the id means it will not be kept; none of these within the timeout means we cannot tell, and the worker writes its own copy
 * under the same id (one record either way, see worker/view/console-api.ts).
 */
export function tapHooks(origin: string): TapHooks {
  let store: CaptureStore | null = null;
  const waiting = new Map<string, (stored: boolean) => void>();
  const channel = new BroadcastChannel(CAPTURE_CHANNEL);
  channel.onmessage = (e: MessageEvent<CaptureNotice>) => {
    const n = e.data;
    const done = n.id !== undefined ? waiting.get(n.id) : undefined;
    if (!done) return;
    // The end committed: stored. Storage refused it but the tap handed the finished record
    // to the page's held exchanges (Inspector.held, written on "Retry saving"): kept, so the
    // worker must not try a write of its own, which would fail the same way. A storage error
    // with no record: not stored. Progress (including a held copy still streaming): wait on.
    if (n.type === 'exchange-end') done(true);
    else if (n.type === 'exchange-unsaved') {
      if (n.record.state !== 'pending' && n.record.state !== 'streaming') done(true);
    } else if (n.type === 'storage-error') done(false);
  };
  return {
    async taps(url) {
      if (!navigator.serviceWorker?.controller) return false;
      const list = new WatchList((store ??= new CaptureStore()), origin);
      await list.load();
      return list.match(new URL(url, origin)) === true;
    },
    watch(id): TapWatch {
      let settle: (stored: boolean) => void = () => {};
      const result = new Promise<boolean>((resolve) => (settle = resolve));
      let timer: ReturnType<typeof setTimeout> | undefined;
      waiting.set(id, (stored) => settle(stored));
      return {
        stored(timeoutMs) {
          timer ??= setTimeout(() => settle(false), timeoutMs);
          return result;
        },
        close() {
          clearTimeout(timer);
          waiting.delete(id);
        },
      };
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
        await api.consoleTransport(proxy(fetchTransport({ timeoutMs: 60_000, tap: hooks })));
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
