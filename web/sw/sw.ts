// The capture service worker. Small on purpose: it decides whether to tap (watch-list),
// taps (tap), and answers the page's handshake. It can be stopped at any moment, so
// everything it knows is re-read from IndexedDB on wake.
//
// A new version (skipWaiting + clients.claim) takes over only once this one has nothing in
// flight: the browser keeps the old worker for its open streams (up to 5 minutes in
// Chromium), so an exchange is always finished by the worker that took it, and each
// request is tapped by exactly one worker. On activation the new one ends the exchanges a
// removed worker left open (orphans.ts), off the activation path: fetch events wait for
// an activated worker, so activation itself only claims the pages.
import { PROTOCOL_VERSION } from '../../worker/protocol.js';
import { CaptureStore } from '../../worker/storage/index.js';
import { CAPTURE_CHANNEL, type CaptureNotice, type SwReply, type SwRequest } from './messages.js';
import { endOrphans } from './orphans.js';
import { LINK_HEADER } from '../../worker/console/link.js';
import { Tap, type TapDeps } from './tap.js';
import { isRelayPageApi, WatchList } from './watch-list.js';

declare const self: ServiceWorkerGlobalScope;

const BUILD_ID = __MRTR_BUILD_ID__;
const store = new CaptureStore();
const channel = new BroadcastChannel(CAPTURE_CHANNEL);
const watch = new WatchList(store, self.location.origin);
let sessionId: Promise<string> | null = null;
/** The sweep of a predecessor's open exchanges, started at activation; events keep us alive for it. */
let sweeping: Promise<unknown> | null = null;

const deps: TapDeps = {
  store,
  recordedUrl: (url) => watch.recordedUrl(url),
  announce: (notice: CaptureNotice) => {
    try {
      channel.postMessage(notice);
    } catch {
      // No page listening is fine; notices are hints, IndexedDB is the record.
    }
  },
  session: () =>
    (sessionId ??= store.currentSession().then(
      (s) => s.id,
      (err: unknown) => {
        sessionId = null;
        throw err;
      },
    )),
};

self.addEventListener('install', (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener('activate', (event) => {
  const cutoff = Date.now();
  event.waitUntil(self.clients.claim());
  sweeping = deps.session().then((s) => endOrphans(store, s, cutoff, deps.announce)).catch(() => 0);
});

// Keeps this worker alive until the activation sweep is done (the pages' handshake after
// the controller change is the first event to come).
function holdForSweep(event: ExtendableEvent): void {
  if (sweeping) event.waitUntil(sweeping);
}

self.addEventListener('message', (event) => {
  const msg = event.data as SwRequest | undefined;
  const port = event.ports[0];
  const reply = (r: SwReply): void => port?.postMessage(r);
  holdForSweep(event);
  switch (msg?.type) {
    case 'hello':
      reply({ type: 'hello', protocol: PROTOCOL_VERSION, build: BUILD_ID, stale: msg.protocol !== PROTOCOL_VERSION || msg.build !== BUILD_ID });
      break;
    case 'targets-changed':
      watch.invalidate();
      event.waitUntil(watch.load().catch(() => undefined).then(() => reply({ type: 'ack' })));
      break;
    case 'session-changed':
      sessionId = null;
      // The analysis workers keep it too (the relay feed's numbering): they read it again.
      deps.announce({ type: 'capture-session' });
      reply({ type: 'ack' });
      break;
    case 'claim':
      event.waitUntil(self.clients.claim().then(() => reply({ type: 'ack' })));
      break;
  }
});

// Before the watch list is loaded we cannot decide synchronously. Only requests that
// could be MCP calls wait for it; everything else (scripts, styles, images) passes.
function mightBeMcp(req: Request): boolean {
  if (req.method === 'POST' || req.method === 'DELETE') return true;
  return req.method === 'GET' && (req.headers.get('accept') ?? '').includes('text/event-stream');
}

self.addEventListener('fetch', (event) => {
  let response: Promise<Response>;
  let tap: Tap;
  try {
    const req = event.request;
    if (req.mode === 'navigate') return;
    const url = new URL(req.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    if (isRelayPageApi(url, self.location.origin)) return; // see watch-list.ts
    const watched = watch.match(url);
    // A Console send carries our link header, which must never reach a server: one the
    // watch list turns down (a list change in flight) is still passed on, stripped.
    const linked = req.headers.has(LINK_HEADER);
    if (watched === false && !linked) return;
    if (watched === null && !mightBeMcp(req)) return;
    const client = event.clientId || event.resultingClientId || undefined;
    tap = new Tap(deps);
    if (watched === false) {
      event.respondWith(tap.skip(req));
      return;
    }
    const t = tap;
    response =
      watched === true
        ? t.run(req, client)
        : watch.load().then(
            () => (watch.match(url) ? t.run(req, client) : t.skip(req)),
            () => t.skip(req),
          );
  } catch {
    return; // fail open: the browser handles the request as if we were not here
  }
  event.respondWith(response);
  event.waitUntil(tap.done);
  holdForSweep(event);
});
