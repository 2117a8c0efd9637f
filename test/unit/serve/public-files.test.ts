// The files of public/ (the favicon, the app icons, the web app manifest), served by the
// production server from a build folder as `vite build` leaves them: each with its own
// type, under the same CSP as the page, to a browser's icon and manifest requests.
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP } from '../../../server/csp.js';
import { startInspectorServer, type InspectorServer } from '../../../server/serve/inspector-server.js';
import { send } from '../relay/relay-harness.js';

const PUBLIC = new URL('../../../public/', import.meta.url);

describe('the production server and the files of public/', () => {
  let dir: string;
  let server: InspectorServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mrtr-public-test-'));
    const web = join(dir, 'web');
    // vite build copies public/ to the root of dist/web as it is.
    await cp(PUBLIC, web, { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>inspector</title>');
    server = await startInspectorServer({ webRoot: web, port: 0, demo: false, relay: { token: 'public-files-token-0123456789', warn: () => undefined, jsonlPath: join(dir, 'cap', 'capture.jsonl') } });
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  // What Chromium sends for a favicon and for the manifest (no cookie needed: they are public).
  const asIcon = { 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors', 'sec-fetch-site': 'same-origin' };
  const asManifest = { 'sec-fetch-dest': 'manifest', 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin' };

  it('answers the favicon as SVG and its PNG fallbacks as PNG, under the CSP', async () => {
    const svg = await send(server.port, { path: '/favicon.svg', headers: asIcon });
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
    expect(svg.headers['content-security-policy']).toBe(CSP);
    expect(svg.text).toContain('prefers-color-scheme: dark');
    for (const png of ['/favicon-32.png', '/icon-192.png', '/icon-512.png', '/apple-touch-icon.png']) {
      const r = await send(server.port, { path: png, headers: asIcon });
      expect(r.status, png).toBe(200);
      expect(r.headers['content-type'], png).toBe('image/png');
    }
  });

  it('answers the web app manifest as application/manifest+json, and every icon it names', async () => {
    const r = await send(server.port, { path: '/manifest.webmanifest', headers: asManifest });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = r.json() as { icons: { src: string; type: string }[] };
    for (const icon of manifest.icons) {
      const got = await send(server.port, { path: icon.src, headers: asIcon });
      expect(got.status, icon.src).toBe(200);
      expect(got.headers['content-type'], icon.src).toBe(icon.type);
    }
  });

  it('names a type for every file public/ holds (none is sent as application/octet-stream)', async () => {
    for (const name of await readdir(PUBLIC)) {
      const r = await send(server.port, { path: `/${name}`, headers: asIcon });
      expect(r.status, name).toBe(200);
      expect(r.headers['content-type'], name).not.toBe('application/octet-stream');
    }
  });

  it('lets the page load them: the CSP allows same-origin images and manifests', () => {
    const directives = new Map(CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives.get('img-src')).toContain("'self'");
    expect(directives.get('manifest-src')).toContain("'self'");
  });
});
