// The dev server's test hook for service-worker updates (server/sw-plugin.ts): a browser's
// service-worker script fetch of `/sw.js?build=<name>` gets a build with another build id,
// so a test can install a new worker version; every other fetch gets the normal build.
// (Production never has the hook: `npm start` serves the built file through vite preview.)
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createLogger, createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './relay-harness.js';

const CONFIG = fileURLToPath(new URL('../../../vite.config.ts', import.meta.url));
const buildIdOf = (code: string) => /(?:const|let|var) BUILD_ID = (["'])([^"']*)\1/.exec(code)?.[2];

describe('the service worker build hook of the dev server', () => {
  let server: ViteDevServer;
  let port: number;
  beforeAll(async () => {
    server = await createServer({ configFile: CONFIG, customLogger: createLogger('silent'), server: { port: 0, strictPort: false, hmr: false, watch: null } });
    await server.listen();
    port = (server.httpServer!.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await server.close();
  });

  it('builds /sw.js?build=<name> with the build id <build>~<name> only for a service worker script fetch', async () => {
    const plain = await send(port, { path: '/sw.js' });
    expect(plain.status).toBe(200);
    const build = buildIdOf(plain.text);
    expect(build).toMatch(/^[a-z0-9]+-[a-z0-9]+$/);

    const hooked = await send(port, { path: '/sw.js?build=e2e-next', headers: { 'service-worker': 'script' } });
    expect(hooked.status).toBe(200);
    expect(buildIdOf(hooked.text)).toBe(`${build}~e2e-next`);

    // A plain fetch (any page, or another site's) cannot set the header: the normal build.
    expect(buildIdOf((await send(port, { path: '/sw.js?build=e2e-next' })).text)).toBe(build);
    // A name outside [A-Za-z0-9_-]{1,32} is ignored.
    expect(buildIdOf((await send(port, { path: '/sw.js?build=%22x', headers: { 'service-worker': 'script' } })).text)).toBe(build);
  });
});
