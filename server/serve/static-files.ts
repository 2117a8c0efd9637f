// Serves the prebuilt page (the `vite build` output: index.html, hashed assets and the
// service worker) from one folder, for the production server.
//
// Hazard: the URL path comes from anyone who can reach the port; it is resolved and must
// stay inside the folder, and only files (no listings) are ever answered.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** Answers GET/HEAD for files under `root`; anything else gets a plain 404/405. */
export function createStaticHandler(root: string): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const base = resolve(root);
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed.');
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://static.invalid').pathname);
    } catch {
      return plain(res, 400, 'Bad URL.');
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = resolve(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) return plain(res, 404, 'Not found.');
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return plain(res, 404, `Not found: ${path.slice(0, 200)}`);
    res.statusCode = 200;
    res.setHeader('Content-Type', TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
    res.setHeader('Content-Length', info.size);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Hashed assets never change; the page and the service worker must be checked every
    // time, so a new build is picked up (the worker compares its bytes on update checks).
    res.setHeader('Cache-Control', path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (req.method === 'HEAD') return void res.end();
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}
