// Small JSON in and out for the page API's routes (page-api.ts, mocks-api.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './forward.js';
import { refuse } from './guards.js';

/** Answers with `value` as JSON, never cached. */
export function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Reads a JSON request body of at most `limit` bytes; undefined (after answering 413 or 400) when it is not one. */
export async function readJson(req: IncomingMessage, res: ServerResponse, what: string, limit: number, example: string): Promise<{ value: unknown } | undefined> {
  const bytes = await readBody(req, limit);
  if (!bytes) {
    refuse(res, 413, `${what} too large (limit ${limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MiB` : `${limit} bytes`}).`);
    return undefined;
  }
  try {
    return { value: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    refuse(res, 400, `${what} must be JSON: ${example}.`);
    return undefined;
  }
}

