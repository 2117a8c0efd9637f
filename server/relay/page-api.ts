import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROTOCOL_VERSION } from '../../worker/protocol.js';
import { DRAIN_HEADER, MORE_HEADER, parseAck } from './backlog.js';
import { json, readJson } from './api-io.js';
import { ownOrigin, pageOriginProblem, pageSecretProblem, refuse } from './guards.js';
import type { RelayContext } from './relay-context.js';
import { relayExchange, type RelayPolicy } from './relay-exchange.js';
import { parseTargetList } from './target-store.js';
import { handleMocksApi } from './mocks-api.js';
import { MOCK_TARGET_PREFIX } from './mock-host.js';
import { STDIO_PAGE_PATH, STDIO_TARGET_PREFIX } from './stdio-attach.js';

// The inspector page's side of the relay, under /relay/api/ (same origin only):
//   GET  info            version, relay URL template, capture path, targets
//   GET  targets         the target list (demo first)
//   PUT  targets         replace the user's targets with `[{ id, url }]` (POST works too)
//   GET  events          text/event-stream; each event's data is one RelayPush JSON (a record, then deltas)
//   POST backlog         a bounded batch of the capture file's JSONL, a drain id in the
//                        mrtr-drain header, mrtr-backlog-more: 1 when lines were left out
//                        (GET works too); the file keeps every line until
//                        acknowledged (`?after=<drain>`: the batch after that one's)
//   POST backlog/ack     { drain, ids } says the page stored them; then they are removed
//   GET  mocks           the mocks served ("Serve as mock"), each with its summary and mismatches
//   POST mocks           { name, capture, source, timing } serves a capture (JSONL/HAR text) as target mock-<name>
//   DELETE mocks/<name>  stops serving it (mocks-api.ts)
//   *    forward/<id>    forwards to a "via relay" target and streams the answer back

// The page's origin to name in CORS headers: the one it used (127.0.0.1 or localhost).
function corsOrigin(req: IncomingMessage): string {
  const origin = req.headers.origin;
  return typeof origin === 'string' ? origin : ownOrigin(req);
}

// Forwarding for the page: the browser's own cookies and fetch metadata are for the
// inspector, not for the target, and the target must not set cookies on our origin.
function pagePolicy(req: IncomingMessage): RelayPolicy {
  return {
    dropRequest: (name) => name === 'cookie' || name.startsWith('sec-fetch-') || name.startsWith('sec-ch-'),
    dropResponse: (name) => name.startsWith('access-control-') || name === 'set-cookie',
    extraResponse: (upstream) => {
      const names = new Set<string>();
      upstream.headers.forEach((_v, name) => names.add(name));
      names.delete('set-cookie');
      return {
        'access-control-allow-origin': corsOrigin(req),
        'access-control-expose-headers': [...names].join(', ') || 'content-type',
        vary: 'Origin',
      };
    },
  };
}

// Answers a CORS preflight for the forwarder (only reached when the page is cross-origin,
// e.g. opened as localhost while the relay names 127.0.0.1).
function preflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-origin': corsOrigin(req),
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
    'access-control-max-age': '600',
    vary: 'Origin',
  });
  res.end();
}

// Attached stdio servers (wrap --serve): the page reaches each at its same-origin endpoint.
function stdioTargets(ctx: RelayContext, req: IncomingMessage): { id: string; name: string; url: string }[] {
  return ctx.stdio.names().map((n) => ({ id: `${STDIO_TARGET_PREFIX}${n}`, name: n, url: `${ownOrigin(req)}${STDIO_PAGE_PATH}${n}` }));
}

// Mocks served by the page: the page (its Console) reaches each through its forwarder.
function mockTargets(ctx: RelayContext, req: IncomingMessage): { id: string; name: string; url: string }[] {
  return ctx.mocks.names().map((n) => ({ id: `${MOCK_TARGET_PREFIX}${n}`, name: n, url: `${ownOrigin(req)}/relay/api/forward/${MOCK_TARGET_PREFIX}${n}` }));
}

/** Routes one /relay/api/<segments> request after checking it comes from the page. */
export async function handlePageApi(ctx: RelayContext, req: IncomingMessage, res: ServerResponse, segments: string[]): Promise<void> {
  const originIssue = pageOriginProblem(req);
  if (originIssue) return refuse(res, 403, originIssue);
  const method = (req.method ?? 'GET').toUpperCase();
  const [name, ...rest] = segments;
  // A preflight carries no cookies and grants nothing by itself; every real call needs the secret.
  if (name === 'forward' && method === 'OPTIONS') return preflight(req, res);
  const secretIssue = pageSecretProblem(req, ctx.pageSecret);
  if (secretIssue) return refuse(res, 403, secretIssue);

  if (name === 'forward') {
    const targetId = rest[0] ?? '';
    const url = new URL(req.url ?? '/', 'http://relay.invalid');
    const route = rest.length === 1 ? ctx.route(req, targetId, url.searchParams) : undefined;
    if (!route) {
      const known = [...ctx.targets.list('').map((t) => t.id), ...ctx.mocks.names().map((n) => `${MOCK_TARGET_PREFIX}${n}`)].join(', ');
      return refuse(res, 404, `Unknown target ${JSON.stringify(targetId.slice(0, 64))}: the relay forwards only to watched targets (known: ${known}). Add the target in the inspector, which sends its list to the relay.`);
    }
    return ctx.bounded(res, () => relayExchange(req, res, route, pagePolicy(req)));
  }

  if (name === 'mocks') return handleMocksApi(ctx, req, res, method, rest);

  if (name === 'events' && rest.length === 0 && method === 'GET') return ctx.pages.add(res);

  if (name === 'backlog' && rest.length === 0 && (method === 'GET' || method === 'POST')) {
    // Written as it is read (no length known up front): the page stores the first records
    // while the relay is still reading the rest of the batch.
    let started = false;
    try {
      // `?after=<drain>`: the batch after that drain's, asked for before it is acknowledged.
      const after = new URL(req.url ?? '/', 'http://relay.invalid').searchParams.get('after') ?? undefined;
      await ctx.backlog.handOut({
        head: (drain, more) => {
          started = true;
          res.writeHead(200, {
            'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store',
            [DRAIN_HEADER]: drain, [MORE_HEADER]: more ? '1' : '0',
          });
        },
        write: (bytes) => void res.write(bytes),
      }, after);
    } catch (err) {
      // Cut short: the page's drain fails and it drains again on its next `open`.
      if (started) return void res.destroy(err as Error);
      throw err;
    }
    res.end();
    return;
  }

  if (name === 'backlog' && rest.length === 1 && rest[0] === 'ack' && method === 'POST') {
    const body = await readJson(req, res, 'The acknowledgement', 8 * 1024 * 1024, '{"drain": "…", "ids": ["…"]}');
    if (!body) return;
    const ack = parseAck(body.value);
    if (typeof ack === 'string') return refuse(res, 400, ack);
    const outcome = await ctx.backlog.ack(ack);
    if (!outcome.ok) return refuse(res, outcome.status, outcome.error);
    return json(res, 200, { removed: outcome.removed, left: outcome.left });
  }

  if (name === 'targets' && rest.length === 0) {
    if (method === 'GET') return json(res, 200, { targets: ctx.targets.list(ctx.demoUrl(req)), stdio: stdioTargets(ctx, req), mocks: mockTargets(ctx, req) });
    if (method === 'PUT' || method === 'POST') {
      const body = await readJson(req, res, 'The target list', 1024 * 1024, '[{ "id": "local", "url": "http://localhost:3000/mcp" }]');
      if (!body) return;
      const result = parseTargetList(body.value);
      if (!result.ok) return refuse(res, 400, result.error);
      try {
        ctx.targets.replace(result.targets);
      } catch (err) {
        return refuse(res, 500, `Could not save the target list to ${ctx.targets.file}: ${(err as Error).message}.`);
      }
      return json(res, 200, { targets: ctx.targets.list(ctx.demoUrl(req)) });
    }
  }

  if (name === 'info' && rest.length === 0 && method === 'GET') {
    return json(res, 200, {
      version: PROTOCOL_VERSION,
      relayUrl: ctx.relayUrl(req, '<target>').replace(encodeURIComponent('<target>'), '<target>'),
      demoUrl: ctx.demoUrl(req),
      jsonlPath: ctx.capture.path,
      targets: ctx.targets.list(ctx.demoUrl(req)).map((t) => ({ ...t, relayUrl: ctx.relayUrl(req, t.id) })),
    });
  }

  return refuse(res, 404, 'Unknown relay API call. The page API is: GET info, GET/PUT targets, GET events, POST backlog, POST backlog/ack, GET/POST mocks, DELETE mocks/<name>, and forward/<target>.');
}
