import { availableParallelism } from 'node:os';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { serviceWorkerPlugin } from './server/sw-plugin.js';
import { relayPlugin } from './server/relay/plugin.js';
import { cspPlugin } from './server/csp-plugin.js';

// One config for the page build, `vite dev` and vitest. Unit and integration tests run in
// Node (vitest, test/unit); browser tests are Playwright's (test/e2e).
export default defineConfig({
  root: 'web',
  publicDir: '../public',
  plugins: [svelte(), serviceWorkerPlugin(), relayPlugin(), cspPlugin()],
  // cors: false. Vite's default lets any localhost or 127.0.0.1 page on another port read
  // our files cross-origin; the page needs none of it (the relay answers its own CORS).
  server: { host: '127.0.0.1', port: 5173, strictPort: true, cors: false },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true, cors: false },
  build: { outDir: '../dist/web', emptyOutDir: true },
  test: {
    root: '.',
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 30_000,
    // Builds the CLI once, before the files that run it start (test/support/build-cli-once.ts).
    globalSetup: ['test/support/build-cli-once.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core machine, one worker,
    // with the second core idle while a file waits on the CLI or a server it spawned.
    maxWorkers: availableParallelism(),
    // Files share their worker's module cache instead of each loading its own: on this
    // 2-core machine, side by side, the whole run took 114.7 s (174 s CPU) against 178.6 s
    // (301 s CPU), all 240 files passing both ways. A file that changes module state (a
    // global, an env var, a process listener) puts it back in its own afterAll/afterEach.
    isolate: false,
  },
});
