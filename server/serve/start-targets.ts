// Watched targets given on the command line (`mrtr-inspector --target URL`). The relay
// routes them by an id derived from the URL, whatever list the page sends it; the page
// reads them from START_TARGETS_PATH when it opens and adds any it does not watch yet.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostProblem, refuse } from '../relay/guards.js';
import type { Relay } from '../relay/relay.js';

/** The page's read of the start targets (the page only: its origin and its cookie, like the rest of the page API; a URL may carry a key). */
export const START_TARGETS_PATH = '/relay/api/start-targets';

/** A start target: the relay id and the MCP endpoint. */
export interface StartTarget {
  id: string;
  url: string;
}

/** Ids for the URLs, from their host and port (`localhost-3000`), unique, never `demo`. */
export function startTargets(urls: readonly string[]): StartTarget[] {
  const taken = new Set(['demo']);
  return urls.map((url) => {
    const u = new URL(url);
    const base = `${u.hostname}-${u.port || (u.protocol === 'https:' ? '443' : '80')}`.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 56) || 'target';
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    taken.add(id);
    return { id, url: u.href };
  });
}

/** Answers the page's read of the start targets; false when `req` is not that read. */
export function handleStartTargets(req: IncomingMessage, res: ServerResponse, targets: readonly StartTarget[], relay: Pick<Relay, 'pageProblem'>): boolean {
  if (new URL(req.url ?? '/', 'http://relay.invalid').pathname !== START_TARGETS_PATH) return false;
  const problem = hostProblem(req) ?? relay.pageProblem(req);
  if (problem) {
    refuse(res, 403, problem);
    return true;
  }
  const body = JSON.stringify({ targets });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  return true;
}
