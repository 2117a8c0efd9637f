import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP } from '../../../server/csp.js';
import { startInspectorServer, type InspectorServer } from '../../../server/serve/inspector-server.js';
import { startTargets } from '../../../server/serve/start-targets.js';
import { send, startUpstream, type Upstream } from '../relay/relay-harness.js';

const TOKEN = 'serve-test-token-0123456789';

// The production server on node:http, with a stand-in build folder: the files, the CSP on
// everything, the relay and demo behind it, --no-demo and --target.
describe('the production inspector server', () => {
  let dir: string;
  let web: string;
  let upstream: Upstream;
  let server: InspectorServer;
  let noDemo: InspectorServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mrtr-serve-test-'));
    web = join(dir, 'web');
    await mkdir(web);
    await writeFile(join(web, 'index.html'), '<!doctype html><title>inspector</title>');
    await writeFile(join(web, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    // Beside the build folder, where a path that climbs out would land.
    await writeFile(join(dir, 'secret.txt'), 'not to be served');
    upstream = await startUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    const relay = { token: TOKEN, warn: () => undefined };
    server = await startInspectorServer({ webRoot: web, port: 0, targets: [upstream.url], relay: { ...relay, jsonlPath: join(dir, 'a', 'capture.jsonl') } });
    noDemo = await startInspectorServer({ webRoot: web, port: 0, demo: false, relay: { ...relay, jsonlPath: join(dir, 'b', 'capture.jsonl') } });
  });
  afterAll(async () => {
    await server.close();
    await noDemo.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the built page and service worker with the same CSP as the dev server', async () => {
    const page = await send(server.port, { path: '/', headers: { origin: 'http://localhost:1234' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>inspector</title>');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(CSP);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    // Another local page may not read our files.
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    const sw = await send(server.port, { path: '/sw.js?build=other' });
    expect(sw.status).toBe(200);
    expect(sw.headers['content-type']).toMatch(/^text\/javascript/);
    expect(sw.text).toContain('addEventListener');
  });

  it('answers nothing outside the build folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt', '/nope.js']) {
      const r = await send(server.port, { path });
      expect(r.status, path).toBe(404);
      expect(r.text).not.toContain('not to be served');
    }
  });

  it('mounts the relay and the demo in front of the files, and prints the /mcp relay URL', async () => {
    const r = await send(server.port, {
      method: 'POST', path: `/relay/${TOKEN}/demo/mcp`,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(r.status).toBe(200);
    expect(server.banner).toContain(`Relay URL:   ${server.origin}/relay/${TOKEN}/<target>/mcp`);
    expect(server.banner).toContain(`Demo MCP:    ${server.origin}/demo/mcp   (called directly: not captured`);
  });

  it('relays a --target under the id it prints, and tells the page about it', async () => {
    const [{ id }] = startTargets([upstream.url]);
    expect(server.banner).toContain(`${server.origin}/relay/${TOKEN}/${id}/mcp`);
    const r = await send(server.port, { method: 'POST', path: `/relay/${TOKEN}/${id}/mcp`, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(r.status).toBe(200);
    const listed = await send(server.port, { path: '/relay/api/start-targets', headers: { origin: server.origin } });
    expect(listed.json()).toEqual({ targets: [{ id, url: upstream.url }] });
    expect((await send(server.port, { path: '/relay/api/start-targets', headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  it('with --no-demo, says the demo is off, in the banner and on the demo URL', async () => {
    expect(noDemo.banner).toContain('Demo MCP:    off (--no-demo)');
    const r = await send(noDemo.port, { method: 'POST', path: '/demo/mcp', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(404);
    expect(r.json().error).toMatch(/--no-demo/);
  });
});

describe('start target ids', () => {
  it('come from host and port, are unique, and never take the demo id', () => {
    expect(startTargets(['http://localhost:3000/mcp', 'http://localhost:3000/other', 'https://demo/mcp']).map((t) => t.id)).toEqual(['localhost-3000', 'localhost-3000-2', 'demo-443']);
  });
});
