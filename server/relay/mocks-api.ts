// The page API's mocks (docs/guide.md, "Serve a capture as a mock"; docs/security.md):
//   GET    mocks          { mocks: [view] }: each served mock, its relay URL, summary and mismatches
//   POST   mocks          { name, capture, source, timing?, strict? }: serves the capture text as
//                          target mock-<name>, answering as late as recorded or ("fast") at
//                          once; strict refuses a token not echoed or a key never asked
//   DELETE mocks/<name>   stops serving it
// page-api.ts has checked the origin and the page cookie before any of these runs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, readJson } from './api-io.js';
import { refuse } from './guards.js';
import type { MockView } from './mock-host.js';
import type { RelayContext } from './relay-context.js';

const EXAMPLE = '{"name": "demo", "capture": "<the session exported as JSONL>", "source": "the session\'s name", "timing": "recorded", "strict": false}';

function withUrl(ctx: RelayContext, req: IncomingMessage, view: MockView): MockView & { relayUrl: string } {
  return { ...view, relayUrl: ctx.relayUrl(req, view.targetId) };
}

/** Answers /relay/api/mocks[/<name>]. */
export async function handleMocksApi(ctx: RelayContext, req: IncomingMessage, res: ServerResponse, method: string, rest: string[]): Promise<void> {
  if (rest.length === 0 && method === 'GET') return json(res, 200, { mocks: ctx.mocks.views().map((v) => withUrl(ctx, req, v)) });
  if (rest.length === 0 && method === 'POST') {
    const body = await readJson(req, res, 'The mock\'s capture', ctx.maxMockBytes, EXAMPLE);
    if (!body) return;
    const v = body.value as { name?: unknown; capture?: unknown; source?: unknown; timing?: unknown; strict?: unknown } | null;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return refuse(res, 400, `The mock must be a JSON object: ${EXAMPLE}.`);
    const started = ctx.mocks.start(v.name, v.capture, v.source, { timing: v.timing, strict: v.strict });
    if (!started.ok) return refuse(res, started.status, started.error);
    return json(res, 201, { mock: withUrl(ctx, req, started.view) });
  }
  if (rest.length === 1 && method === 'DELETE') {
    const name = rest[0];
    if (!ctx.mocks.stop(name)) return refuse(res, 404, `No mock named ${JSON.stringify(name.slice(0, 64))} is served (served: ${ctx.mocks.names().join(', ') || 'none'}).`);
    return json(res, 200, { stopped: name });
  }
  if (rest.length === 1 && method === 'GET') {
    const view = ctx.mocks.view(rest[0]);
    if (!view) return refuse(res, 404, `No mock named ${JSON.stringify(rest[0].slice(0, 64))} is served.`);
    return json(res, 200, { mock: withUrl(ctx, req, view) });
  }
  return refuse(res, 405, 'The mocks API is: GET mocks, POST mocks {name, capture, source, timing, strict}, GET mocks/<name>, DELETE mocks/<name>.');
}
