import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connect, Logger, Plugin } from 'vite';
import { createDemoHandler } from '../demo/handler.js';
import { createRelay, type Relay, type RelayOptions } from './relay.js';

/** Options for the relay plugin; everything defaults from the environment. */
export type RelayPluginOptions = Partial<RelayOptions>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

// The relay must never be reachable from the network: refuse to start on any other host.
function assertLoopback(host: string | boolean | undefined, key: string): void {
  if (host === undefined || (typeof host === 'string' && LOOPBACK.has(host))) return;
  throw new Error(`mrtr-inspector's relay listens on 127.0.0.1 only, but ${key} is ${JSON.stringify(host)}. Drop --host (or set ${key} to '127.0.0.1').`);
}

/**
 * Mounts the relay in front of Vite's own middlewares.
 *
 * Hazard (ordering): Vite installs its CORS and host-check middlewares before any plugin
 * hook runs, so a plain `middlewares.use` would let Vite answer a rebinding Host with its
 * text/plain 403 and answer the page's preflights for any localhost origin. The relay's
 * layer is put at the very front of the connect stack instead, so its own guards (JSON
 * errors, our port only) decide for /relay and /demo. Other paths pass to Vite untouched.
 */
function mount(middlewares: Connect.Server, httpServer: Server | null, logger: Logger, port: number | undefined, opts: RelayPluginOptions): Relay | undefined {
  // Middleware mode (vitest, or Vite embedded in another server): there is no port of our
  // own to guard and nothing to print, so the relay stays off.
  if (!httpServer) return undefined;
  const relay = createRelay({ createDemo: () => createDemoHandler(), port, ...opts, warn: opts.warn ?? ((m) => logger.warn(m)) });
  const handle = (req: IncomingMessage, res: ServerResponse, next: Connect.NextFunction) => relay.handle(req, res, next);
  (middlewares.stack as { route: string; handle: Connect.NextHandleFunction }[]).unshift({ route: '', handle });
  httpServer.once('listening', () => {
    const address = httpServer.address() as AddressInfo | null;
    if (!address) return;
    try {
      relay.publish(address.port);
    } catch (err) {
      logger.warn(`mrtr-inspector: ${(err as Error).message} (wrap cannot find this inspector without it).`);
    }
    logger.info(relay.banner(address.port), { timestamp: false });
  });
  httpServer.once('close', () => void relay.close());
  return relay;
}

// The relay and the embedded demo server as a Vite plugin, for `vite dev` and `vite preview`.
export function relayPlugin(opts: RelayPluginOptions = {}): Plugin {
  let relay: Relay | undefined;
  return {
    name: 'mrtr-inspector:relay',
    configureServer(server) {
      if (server.httpServer) assertLoopback(server.config.server.host, 'server.host');
      relay = mount(server.middlewares, server.httpServer as Server | null, server.config.logger, server.config.server.port, opts);
    },
    configurePreviewServer(server) {
      assertLoopback(server.config.preview.host, 'preview.host');
      relay = mount(server.middlewares, server.httpServer as Server, server.config.logger, server.config.preview.port, opts);
    },
    async closePreviewServer() {
      await relay?.close();
    },
  };
}
