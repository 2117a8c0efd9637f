// Builds the capture service worker (web/sw/sw.ts) into one classic script served at the
// app's root, `/sw.js`, so its scope is the whole app: built on request in `vite dev`
// (cached until a source file changes) and emitted into the output by `vite build`.
// Also defines __MRTR_BUILD_ID__ for the page and the worker alike, for the handshake.
//
// Test hook (dev server only): `/sw.js?build=<name>`, fetched by the browser as a service
// worker script (it sends `Service-Worker: script`), is built with the build id
// `<this build>~<name>`. Registering that URL from the page installs a new worker version
// over the running one, as a redeploy would, by hand in `vite dev` (test/unit/relay/sw-build-hook.test.ts;
// the browser tests redeploy a copy of the production build instead: test/e2e/fixtures.ts
// `deploymentTest`). It cannot
// be reached in production: `npm start`, `npx mrtr-inspector` and any static host serve the
// built dist/web/sw.js as a plain file (server/serve/static-files.ts), where the query is ignored. Cross-site pages
// cannot use it either: they cannot register our scripts, and a fetch of theirs cannot set
// `Service-Worker` without a preflight this server never grants.
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

const ENTRY = fileURLToPath(new URL('../web/sw/sw.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FACADE = fileURLToPath(new URL('../worker/facade.ts', import.meta.url));
export const SW_PATH = '/sw.js';
/** The test hook's build names; anything else is served the normal build. */
const TEST_BUILD = /^[A-Za-z0-9_-]{1,32}$/;
/** How many hook builds are kept (each is a whole bundle). */
const MAX_TEST_BUILDS = 4;

interface Bundle {
  code: string;
  /** Source files and their mtimes when built: a change to any invalidates the bundle. */
  inputs: Map<string, number>;
}

async function bundleServiceWorker(buildId: string, minify: boolean): Promise<Bundle> {
  const out = await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    publicDir: false,
    define: { __MRTR_BUILD_ID__: JSON.stringify(buildId) },
    build: {
      write: false,
      emptyOutDir: false,
      copyPublicDir: false,
      minify,
      sourcemap: minify ? false : 'inline',
      target: 'es2022',
      lib: { entry: ENTRY, formats: ['iife'], name: 'mrtrCaptureWorker', fileName: () => 'sw.js' },
    },
  });
  const outputs = Array.isArray(out) ? out : [out];
  for (const o of outputs) {
    if (!('output' in o)) continue;
    const chunk = o.output.find((c) => c.type === 'chunk');
    if (chunk && chunk.type === 'chunk') {
      const inputs = new Map<string, number>();
      await Promise.all(chunk.moduleIds.filter((id) => !id.startsWith('\0')).map(async (id) => {
        inputs.set(id, await stat(id).then((s) => s.mtimeMs, () => -1));
      }));
      return { code: chunk.code, inputs };
    }
  }
  throw new Error('service worker build produced no chunk (check web/sw/sw.ts)');
}

async function isFresh(b: Bundle): Promise<boolean> {
  for (const [file, mtime] of b.inputs) {
    if ((await stat(file).then((s) => s.mtimeMs, () => -1)) !== mtime) return false;
  }
  return true;
}

/** The Vite plugin: one per config (page build, dev server, preview). */
export function serviceWorkerPlugin(opts: { buildId?: string } = {}): Plugin {
  // One id per server start or build; the page and the worker both get it.
  const buildId = opts.buildId ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  /** Bundles by build id: this build's, and the test hook's (see the header). */
  const cached = new Map<string, Promise<Bundle>>();

  // The bundle for `id`, rebuilt when a source file changed since it was built.
  const bundleFor = async (id: string): Promise<Bundle> => {
    const have = await cached.get(id)?.catch(() => null);
    if (have && (await isFresh(have))) return have;
    const next = bundleServiceWorker(id, false);
    cached.set(id, next);
    for (const old of cached.keys()) {
      if (cached.size <= MAX_TEST_BUILDS + 1) break;
      if (old !== buildId && old !== id) cached.delete(old);
    }
    try {
      return await next;
    } catch (err) {
      if (cached.get(id) === next) cached.delete(id);
      throw err;
    }
  };

  return {
    name: 'mrtr:service-worker',
    config: () => ({
      define: { __MRTR_BUILD_ID__: JSON.stringify(buildId) },
      // Let the dev dependency scan see the analysis worker too: otherwise its packages are
      // found on first use and Vite reloads the page mid-session ("optimized dependencies
      // changed"), which breaks the first capture of a fresh checkout.
      optimizeDeps: { entries: ['index.html', FACADE] },
    }),

    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== SW_PATH) return next();
        try {
          const name = new URL(req.url ?? '/', 'http://sw.invalid').searchParams.get('build');
          const hooked = name !== null && TEST_BUILD.test(name) && req.headers['service-worker'] === 'script';
          const { code } = await bundleFor(hooked ? `${buildId}~${name}` : buildId);
          res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          // Let the browser compare bytes on every update check.
          res.setHeader('Cache-Control', 'no-cache');
          res.end(code);
        } catch (err) {
          server.config.logger.error(`[sw] could not build ${SW_PATH}: ${err instanceof Error ? err.message : String(err)}`);
          res.statusCode = 500;
          res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          res.end(`Service worker build failed; see the dev server's log. Fix web/sw and reload.`);
        }
      });
    },

    async generateBundle() {
      if (this.environment && this.environment.name !== 'client') return;
      const { code } = await bundleServiceWorker(buildId, true);
      this.emitFile({ type: 'asset', fileName: SW_PATH.slice(1), source: code });
    },
  };
}
