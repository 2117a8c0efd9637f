import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP } from '../../../server/csp.js';
import { startInspectorServer, type InspectorServer } from '../../../server/serve/inspector-server.js';
import { startTargets } from '../../../server/serve/start-targets.js';
import { loadPage, PAGE_TOKEN, send, startUpstream, type Upstream } from '../relay/relay-harness.js';

const TOKEN = 'serve-test-token-0123456789';

// The production server on node:http, with a stand-in build folder: the files, the CSP on
// everything, the relay and demo behind it, --no-demo and --target.
describe('the production inspector server', () => {
  let dir: string;
  let web: string;
  let upstream: Upstream;
  let server: InspectorServer;
  let noDemo: InspectorServer;
  let cookie: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mrtr-serve-test-'));
    web = join(dir, 'web');
    await mkdir(web);
    await writeFile(join(web, 'index.html'), '<!doctype html><title>inspector</title>');
    await writeFile(join(web, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    // Beside the build folder, where a path that climbs out would land.
    await writeFile(join(dir, 'secret.txt'), 'not to be served');
    upstream = await startUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    const relay = { token: TOKEN, pageToken: PAGE_TOKEN, warn: () => undefined, relayDir: dir };
    server = await startInspectorServer({ webRoot: web, port: 0, targets: [`${upstream.url}?api_key=start-target-key`], relay: { ...relay, jsonlPath: join(dir, 'a', 'capture.jsonl') } });
    noDemo = await startInspectorServer({ webRoot: web, port: 0, demo: false, relay: { ...relay, jsonlPath: join(dir, 'b', 'capture.jsonl') } });
    cookie = await loadPage(server.port);
  });
  afterAll(async () => {
    await server.close();
    await noDemo.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the built page and service worker with the same CSP as the dev server', async () => {
    const page = await send(server.port, { path: '/', headers: { origin: 'http://localhost:1234', cookie } });
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

  it('relays a --target under the id it prints, and tells the page (and only the page, by its cookie) about it', async () => {
    const url = `${upstream.url}?api_key=start-target-key`;
    const [{ id }] = startTargets([url]);
    expect(server.banner).toContain(`${server.origin}/relay/${TOKEN}/${id}/mcp`);
    const r = await send(server.port, { method: 'POST', path: `/relay/${TOKEN}/${id}/mcp`, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(r.status).toBe(200);
    const listed = await send(server.port, { path: '/relay/api/start-targets', headers: { origin: server.origin, cookie } });
    expect(listed.json()).toEqual({ targets: [{ id, url }] });
    expect((await send(server.port, { path: '/relay/api/start-targets', headers: { origin: 'https://evil.example', cookie } })).status).toBe(403);
    // A forged Origin without the page cookie learns nothing (the URL may hold a key).
    const forged = await send(server.port, { path: '/relay/api/start-targets', headers: { origin: server.origin, 'sec-fetch-site': 'same-origin' } });
    expect(forged.status).toBe(403);
    expect(forged.text).not.toContain('start-target-key');
    expect(forged.json().error).toMatch(/no page cookie/);
  });

  it('prints the link that lets a browser in, and keeps each inspector\'s captures in a file of its own, named for its port', async () => {
    expect(server.banner).toContain(`Inspector:   ${server.origin}/?token=${PAGE_TOKEN}`);
    expect(server.pageUrl).toBe(`${server.origin}/?token=${PAGE_TOKEN}`);
    expect(server.banner).toContain(join(dir, `inspector-${server.port}.json`));
    // Two inspectors of one user, one folder: two files, so one never drains the other's.
    const both = () => startInspectorServer({ webRoot: web, port: 0, relay: { token: TOKEN, pageToken: PAGE_TOKEN, warn: () => undefined, relayDir: dir } });
    const [a, b] = await Promise.all([both(), both()]);
    try {
      expect(a.relay.jsonlPath).toBe(join(dir, `relay-capture-${a.port}.jsonl`));
      expect(b.relay.jsonlPath).toBe(join(dir, `relay-capture-${b.port}.jsonl`));
    } finally {
      await a.close();
      await b.close();
    }
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
