// Registers the capture service worker, makes sure it controls this page, and checks that
// it came from the same build as the page (a stale worker is a classic bug: it keeps
// tapping with old code after a deploy or a dev-server restart).
import { PROTOCOL_VERSION } from '../../worker/protocol.js';
import type { SwReply, SwRequest } from '../sw/messages.js';

export const SW_URL = '/sw.js';
const BUILD_ID = __MRTR_BUILD_ID__;

export interface SwLinkStart {
  link: SwLink;
  /** Something the user should read (the worker was replaced, or the page is stale). */
  notice: string | null;
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
  private constructor(reg: ServiceWorkerRegistration) {
    this.#reg = reg;
  }

  /** Registers at the root scope, waits for control, then runs the version handshake. */
  static async start(): Promise<SwLinkStart> {
    const container = navigator.serviceWorker;
    if (!container) throw new Error('This browser has no service workers (or the page is not on http://127.0.0.1 / https), so traffic cannot be captured.');
    const reg = await container.register(SW_URL, { scope: '/', updateViaCache: 'none' });
    await container.ready;
    const link = new SwLink(reg);
    await link.#ensureControlled();

    const first = await link.hello();
    if (!first.stale) return { link, notice: null };

    // Stale: fetch the current script; skipWaiting + clients.claim make it take over.
    const before = container.controller;
    await reg.update().catch(() => undefined);
    if (container.controller === before && (reg.installing || reg.waiting)) await waitForControllerChange(container, 15_000);
    const second = await link.hello();
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

  hello(): Promise<Extract<SwReply, { type: 'hello' }>> {
    return this.ask({ type: 'hello', protocol: PROTOCOL_VERSION, build: BUILD_ID }) as Promise<Extract<SwReply, { type: 'hello' }>>;
  }

  /** Sends one request and waits for its reply on a private port. */
  ask(req: SwRequest, timeoutMs = 10_000): Promise<SwReply> {
    const target = navigator.serviceWorker.controller ?? this.#reg.active;
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
