// Registers the capture service worker, makes sure it controls this page, and checks that
// it came from the same build as the page (a stale worker is a classic bug: it keeps
// tapping with old code after a deploy or a dev-server restart).
//
// A new worker version can also arrive while the page is capturing: another tab loads the
// app after a redeploy and registers the new script. Nothing is lost by that: a fetch
// belongs to the worker that took it, and the browser activates the new version only once
// the old one has nothing in flight (Chromium waits up to 5 minutes for open streams), so
// an open event stream is finished and recorded by the old worker while new requests keep
// going to it; then skipWaiting + clients.claim hand the page to the new one, and requests
// after `controllerchange` are its. No reload is needed. The page says so twice: when the
// new version is installed but waiting for exchanges in flight, and when it took over
// (after a handshake with it), once per new worker build (`onNotice`).
import { PROTOCOL_VERSION } from '../../worker/protocol.js';
import type { SwReply, SwRequest } from '../sw/messages.js';

export const SW_URL = '/sw.js';
const BUILD_ID = __MRTR_BUILD_ID__;

export interface SwLinkStart {
  link: SwLink;
  /** Something the user should read (the worker was replaced, or the page is stale). */
  notice: string | null;
}

export interface SwLinkOptions {
  /** Later things the user should read: a new worker version took over mid-session. */
  onNotice?: (message: string) => void;
}

type Hello = Extract<SwReply, { type: 'hello' }>;

/** What the user reads while a new version waits for the current one's open exchanges. */
export function waitingNotice(current: Hello | null, next: Hello): string {
  return `A new capture service worker (build ${next.build}) is installed and takes over once the exchanges in flight ` +
    `through the current one${current ? ` (build ${current.build})` : ''} end: the browser lets them finish first, for up to 5 minutes. Capture continues meanwhile.`;
}

/** What the user reads when a new worker took over after start; null when nothing changed. */
export function updateNotice(before: Hello, after: Hello): string | null {
  if (after.build === before.build && after.protocol === before.protocol) return null;
  const what = `The capture service worker was updated while this page was open (build ${before.build} → ${after.build}).`;
  if (after.protocol !== PROTOCOL_VERSION) {
    return `${what} It records protocol v${after.protocol} and this page reads v${PROTOCOL_VERSION}: reload the page now, or new captures may not show.`;
  }
  if (after.build !== BUILD_ID) return `${what} Capture continues with it, nothing was lost; reload the page when convenient to get the matching page (build ${BUILD_ID} here).`;
  return `${what} Capture continues with it; nothing was lost.`;
}

function waitForControllerChange(sw: ServiceWorkerContainer, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    const onChange = (): void => done(true);
    function done(changed: boolean): void {
      clearTimeout(timer);
      sw.removeEventListener('controllerchange', onChange);
      resolve(changed);
    }
    sw.addEventListener('controllerchange', onChange);
  });
}

export class SwLink {
  readonly #reg: ServiceWorkerRegistration;
  /** The last worker the handshake answered for. */
  #worker: Hello | null = null;
  #checking: Promise<void> = Promise.resolve();
  private constructor(reg: ServiceWorkerRegistration) {
    this.#reg = reg;
  }

  /** Registers at the root scope, waits for control, then runs the version handshake. */
  static async start(opts: SwLinkOptions = {}): Promise<SwLinkStart> {
    const container = navigator.serviceWorker;
    if (!container) throw new Error('This browser has no service workers (or the page is not on http://127.0.0.1 / https), so traffic cannot be captured.');
    const reg = await container.register(SW_URL, { scope: '/', updateViaCache: 'none' });
    await container.ready;
    const link = new SwLink(reg);
    await link.#ensureControlled();
    const started = await link.#handshake();
    // Only after start: the changes start itself causes are told by `notice` already.
    container.addEventListener('controllerchange', () => link.#controllerChanged(opts.onNotice));
    reg.addEventListener('updatefound', () => {
      const next = reg.installing;
      if (next) link.#watchInstall(next, opts.onNotice);
    });
    return started;
  }

  // A new version is installing. With skipWaiting it activates at once unless the current
  // worker has exchanges in flight; only when it is still waiting after a grace second is
  // the user told why new requests still go to the current one.
  #watchInstall(next: ServiceWorker, onNotice: ((message: string) => void) | undefined): void {
    const settled = (): boolean => next.state !== 'installing' && next.state !== 'installed';
    const changed = () => new Promise<void>((resolve) => next.addEventListener('statechange', () => resolve(), { once: true }));
    void (async () => {
      while (next.state === 'installing') await changed();
      if (settled()) return;
      await Promise.race([changed(), new Promise((r) => setTimeout(r, 1000))]);
      if (settled() || this.#reg.waiting !== next) return;
      const hello = await this.hello(next).catch(() => null);
      if (hello && !settled()) onNotice?.(waitingNotice(this.#worker, hello));
    })();
  }

  // Controller changes come one at a time (a second may come while the first is asked).
  #controllerChanged(onNotice: ((message: string) => void) | undefined): void {
    this.#checking = this.#checking.then(async () => {
      const before = this.#worker;
      const after = await this.hello().catch(() => null);
      if (!after) return; // the next request or change asks again
      this.#worker = after;
      const notice = before ? updateNotice(before, after) : null;
      if (notice) onNotice?.(notice);
    });
  }

  async #handshake(): Promise<SwLinkStart> {
    const link = this;
    const container = navigator.serviceWorker;
    const reg = this.#reg;
    const first = await link.hello();
    link.#worker = first;
    if (!first.stale) return { link, notice: null };

    // Stale: fetch the current script; skipWaiting + clients.claim make it take over.
    const before = container.controller;
    await reg.update().catch(() => undefined);
    if (container.controller === before && (reg.installing || reg.waiting)) await waitForControllerChange(container, 15_000);
    const second = await link.hello();
    link.#worker = second;
    const waiting = second.stale && reg.waiting ? await link.hello(reg.waiting).catch(() => null) : null;
    // The current worker is held by exchanges in flight (another tab's open stream): the
    // new one takes over when they end, and the controller change is told then.
    if (waiting && !waiting.stale) return { link, notice: waitingNotice(second, waiting) };
    if (second.stale) {
      return {
        link,
        notice: `This page (build ${BUILD_ID}, protocol v${PROTOCOL_VERSION}) does not match the capture service worker the server ` +
          `provides (build ${second.build}, protocol v${second.protocol}). Reload the page to get the current build.`,
      };
    }
    return {
      link,
      notice: `The capture service worker was stale (build ${first.build}, protocol v${first.protocol}) and was replaced by build ${second.build}.`,
    };
  }

  /** The handshake with the worker controlling the page, or with `worker` (a waiting one). */
  hello(worker?: ServiceWorker): Promise<Hello> {
    return this.ask({ type: 'hello', protocol: PROTOCOL_VERSION, build: BUILD_ID }, 10_000, worker) as Promise<Hello>;
  }

  /** Sends one request and waits for its reply on a private port. */
  ask(req: SwRequest, timeoutMs = 10_000, worker?: ServiceWorker): Promise<SwReply> {
    const target = worker ?? navigator.serviceWorker.controller ?? this.#reg.active;
    if (!target) return Promise.reject(new Error('No active capture service worker; reload the page.'));
    return new Promise((resolve, reject) => {
      const { port1, port2 } = new MessageChannel();
      const timer = setTimeout(() => {
        port1.close();
        reject(new Error(`The capture service worker did not answer "${req.type}" within ${timeoutMs / 1000}s; reload the page.`));
      }, timeoutMs);
      port1.onmessage = (e: MessageEvent<SwReply>) => {
        clearTimeout(timer);
        port1.close();
        resolve(e.data);
      };
      target.postMessage(req, [port2]);
    });
  }

  // A hard reload (Shift+Reload) loads the page without a controller even though the
  // worker is active; asking it to claim again puts the page back under capture.
  async #ensureControlled(): Promise<void> {
    const container = navigator.serviceWorker;
    if (container.controller) return;
    const changed = waitForControllerChange(container, 15_000);
    if (!container.controller) await this.ask({ type: 'claim' }).catch(() => undefined);
    if (!container.controller && !(await changed)) {
      throw new Error('The capture service worker is active but does not control this page; reload the page.');
    }
  }
}
