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
  /** The link that lets a browser in (printed, and opened by --open). */
  readonly pageUrl: string;
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
  const serveFile = createStaticHandler(opts.webRoot);
  // The relay is made once the port is known: its capture file is named for the port, so two
  // inspectors of one user never share (and drain) one file. Nothing arrives before listen.
  let relay: Relay | undefined;
  const server: Server = createServer((req, res) => {
    if (!relay) return void res.destroy();
    setCspHeaders(res);
    if (handleStartTargets(req, res, targets, relay)) return;
    relay.handle(req, res, () => {
      serveFile(req, res).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  try {
    relay = createRelay({ createDemo: demo ? () => createDemoHandler() : () => NO_DEMO, pinnedTargets: targets, port, ...opts.relay });
    relay.publish(port);
  } catch (err) {
    await relay?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw err;
  }
  const started = relay;
  let closing: Promise<void> | undefined;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    relay: started,
    pageUrl: started.pageUrl(port),
    banner: started.banner(port, { demo, targets }),
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await started.close();
        server.closeAllConnections();
        await closed;
      })()),
  };
}
