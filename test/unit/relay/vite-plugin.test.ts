import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, createServer, preview, type Logger } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPage, PAGE_TOKEN, send, TOKEN } from './relay-harness.js';

const CONFIG = fileURLToPath(new URL('../../../vite.config.ts', import.meta.url));

// A logger that keeps what Vite and the relay print, so the start banner can be checked.
function recordingLogger(): Logger & { lines: string[] } {
  const base = createLogger('silent');
  const lines: string[] = [];
  return { ...base, lines, info: (msg: string) => void lines.push(msg), warn: (msg: string) => void lines.push(msg) };
}

describe('the relay plugin in the repo config', () => {
  let dir: string;
  const names = ['MRTR_RELAY_TOKEN', 'MRTR_PAGE_TOKEN', 'MRTR_RELAY_JSONL', 'MRTR_RELAY_DIR'] as const;
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mrtr-relay-vite-'));
    process.env.MRTR_RELAY_TOKEN = TOKEN;
    process.env.MRTR_PAGE_TOKEN = PAGE_TOKEN;
    process.env.MRTR_RELAY_JSONL = join(dir, 'capture.jsonl');
    process.env.MRTR_RELAY_DIR = dir;
  });
  afterAll(async () => {
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
    await rm(dir, { recursive: true, force: true });
  });

  // What both servers must do once listening on `port`.
  async function checkMounted(port: number, logger: { lines: string[] }): Promise<void> {
    const banner = logger.lines.join('\n');
    expect(banner).toContain(`Inspector:   http://127.0.0.1:${port}/?token=${PAGE_TOKEN}`);
    expect(banner).toContain(`http://127.0.0.1:${port}/relay/${TOKEN}/<target>`);
    expect(banner).toContain(join(dir, 'capture.jsonl'));
    // What a stdio server's wrap needs to find this inspector: no token on its command line.
    expect(banner).toContain(`mrtr-inspector wrap --inspector http://127.0.0.1:${port} -- <server command>`);
    expect(banner).toContain(join(dir, `inspector-${port}.json`));
    expect(banner).not.toMatch(/wrap[^\n]*(MRTR_RELAY_TOKEN|--token)/);
    // The relay's guard runs before Vite's own host check: a JSON refusal, not Vite's text.
    const rebound = await send(port, { path: '/relay/api/targets', headers: { host: `evil.example:${port}` } });
    expect(rebound.status).toBe(403);
    expect(rebound.json().error).toMatch(/DNS rebinding/);
    // The link printed at start hands the page the cookie its page-API calls carry.
    const cookie = await loadPage(port);
    expect(cookie).toMatch(new RegExp(`^mrtr-page-${port}=`));
    const targets = await send(port, { path: '/relay/api/targets', headers: { origin: `http://127.0.0.1:${port}`, cookie } });
    expect(targets.json<{ targets: { id: string }[] }>().targets.map((t) => t.id)).toEqual(['demo']);
    const discover = await send(port, {
      method: 'POST',
      path: '/demo/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(discover.status).toBe(200);
    expect(discover.text).toContain('mrtr-inspector-demo');
    await checkNoCors(port);
    // No page of ours names its URL (relay URLs carry the token) to anything it loads.
    expect((await send(port, { path: '/' })).headers['referrer-policy']).toBe('no-referrer');
  }

  // Vite's default CORS lets any http://localhost:* or 127.0.0.1:* page read our static
  // files (the app's source, the service worker). A real cross-origin read and preflight
  // from another local port must get no Access-Control-Allow-Origin back.
  async function checkNoCors(port: number): Promise<void> {
    const foreign = 'http://localhost:9';
    for (const path of ['/', '/sw.js', '/index.html']) {
      const read = await send(port, { path, headers: { origin: foreign, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors' } });
      expect(read.headers['access-control-allow-origin'], path).toBeUndefined();
    }
    const pre = await send(port, { method: 'OPTIONS', path: '/', headers: { origin: foreign, 'access-control-request-method': 'GET' } });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  }

  it('vite dev mounts the relay and the demo server ahead of Vite, and prints the URLs', async () => {
    const logger = recordingLogger();
    const server = await createServer({ configFile: CONFIG, customLogger: logger, server: { port: 0, strictPort: false, hmr: false, watch: null } });
    try {
      await server.listen();
      const { port } = server.httpServer!.address() as AddressInfo;
      await checkMounted(port, logger);
    } finally {
      await server.close();
    }
  });

  it('vite preview mounts the same relay', async () => {
    const logger = recordingLogger();
    const server = await preview({ configFile: CONFIG, customLogger: logger, preview: { port: 0, strictPort: false } });
    try {
      const { port } = server.httpServer.address() as AddressInfo;
      await checkMounted(port, logger);
    } finally {
      await server.close();
    }
  });

  it('refuses to start the relay on a non-loopback host', async () => {
    await expect(createServer({ configFile: CONFIG, customLogger: recordingLogger(), server: { host: '0.0.0.0', port: 0, hmr: false, watch: null } })).rejects.toThrow(
      /listens on 127\.0\.0\.1 only.*server\.host is "0\.0\.0\.0"/,
    );
  });
});
