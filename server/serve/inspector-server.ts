// The production server, on plain node:http: the prebuilt page and service worker, the
// CSP headers, the relay and the embedded demo server, on 127.0.0.1 only. `npm start` and
// `npx mrtr-inspector` run this; `vite dev` mounts the same relay and CSP code as plugins.
//
// Hazard (shutdown): open event streams (pages, relayed streams) would keep `close()` waiting
// forever; the relay ends its streams first and every connection is then cut.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setCspHeaders } from '../csp.js';
import { createDemoHandler } from '../demo/handler.js';
import { createRelay, type DemoHandler, type Relay, type RelayOptions } from '../relay/relay.js';
import { inspectorBanner } from './banner.js';
import { handleStartTargets, startTargets } from './start-targets.js';
import { createStaticHandler } from './static-files.js';

/** How to start the inspector. */
export interface InspectorServerOptions {
  /** The folder of the built page (`vite build` output). */
  webRoot: string;
  /** 0 picks a free port. */
  port: number;
  /** False turns the embedded demo server off (--no-demo). */
  demo?: boolean;
  /** Watched-target URLs to add at start (--target). */
  targets?: readonly string[];
  relay?: Partial<RelayOptions>;
}

/** A running inspector. */
export interface InspectorServer {
  readonly port: number;
  readonly origin: string;
  readonly relay: Relay;
  readonly banner: string;
  close(): Promise<void>;
}

// The demo's stand-in when it is off: every call says why, as the relay's refusals do.
const NO_DEMO: DemoHandler = {
  fetch: async () => Response.json({ error: 'The embedded demo server is off (the inspector was started with --no-demo).' }, { status: 404 }),
  close: async () => undefined,
};

/** Starts the server; rejects when the port is taken (never moves to another port, since the printed relay URL names it). */
export async function startInspectorServer(opts: InspectorServerOptions): Promise<InspectorServer> {
  const demo = opts.demo !== false;
  const targets = startTargets(opts.targets ?? []);
  const relay = createRelay({ createDemo: demo ? () => createDemoHandler() : () => NO_DEMO, pinnedTargets: targets, ...opts.relay });
  const serveFile = createStaticHandler(opts.webRoot);
  const server: Server = createServer((req, res) => {
    setCspHeaders(res);
    if (handleStartTargets(req, res, targets)) return;
    relay.handle(req, res, () => {
      serveFile(req, res).catch(() => res.destroy());
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await relay.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    relay,
    banner: inspectorBanner({ port, token: relay.token, jsonlPath: relay.jsonlPath, demo, targets }),
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await relay.close();
        server.closeAllConnections();
        await closed;
      })()),
  };
}
