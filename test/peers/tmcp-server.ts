// An independent peer: a server built with tmcp (1.20.0, a third-party MCP library nobody
// here wrote) over @tmcp/transport-http, served by node:http on 127.0.0.1 at a free port.
// It speaks 2026-07-28 sessionless requests, where tmcp turns `server.elicitation()` into an
// input_required result and re-runs the (replayable) handler from the top on the retry.
// Tools, both marked readOnlyHint so `check` drives them without --allow-destructive:
//   book_room    two rounds of forms: which room (enum, nights with a default), then confirm
//   room_rates   one round, no input
// By default requestState is protected the way tmcp's docs advise (`requestStateCodec`): an
// HMAC over tmcp's JSON, so a changed token is refused. `plainState: true` keeps tmcp's
// default JSON codec, which a client can read and change.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from 'tmcp';
import { HttpTransport } from '@tmcp/transport-http';
import { ValibotJsonSchemaAdapter } from '@tmcp/adapter-valibot';
import * as v from 'valibot';

/** What server/discover reports. */
export const TMCP_INFO = { name: 'tmcp-peer', version: '1.0.0', description: 'tmcp peer of the test suite' };
const KEY = 'tmcp-peer-key-0123456789abcdef-0123456789';
const RATES: Record<string, number> = { single: 80, double: 120, suite: 260 };

/** An HMAC-signed codec: `<base64url JSON>.<base64url mac>`; anything else is refused. */
function signedCodec(key: string) {
  const mac = (body: string) => createHmac('sha256', key).update(body).digest('base64url');
  return {
    encode: (state: unknown) => {
      const body = Buffer.from(JSON.stringify(state)).toString('base64url');
      return `${body}.${mac(body)}`;
    },
    decode: (encoded: string) => {
      const [body, sig, extra] = encoded.split('.');
      const want = Buffer.from(mac(body ?? ''));
      const got = Buffer.from(sig ?? '');
      if (extra !== undefined || got.length !== want.length || !timingSafeEqual(got, want)) throw new Error('requestState signature does not match');
      return JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as unknown;
    },
  };
}

export function createTmcpServer(opts: { plainState?: boolean } = {}): McpServer<v.GenericSchema> {
  const server = new McpServer(TMCP_INFO, {
    adapter: new ValibotJsonSchemaAdapter(),
    capabilities: { tools: { listChanged: false } },
    ...(opts.plainState ? {} : { requestStateCodec: signedCodec(KEY) }),
  });
  server.tool({
    name: 'book_room',
    description: 'Two rounds: pick a room, then confirm the booking (nothing is stored)',
    schema: v.object({ guest: v.pipe(v.string(), v.description('Who stays')) }),
    annotations: { readOnlyHint: true },
    replayable: true,
  }, async ({ guest }) => {
    const room = await server.elicitation(`Which room for ${guest}?`, v.object({
      room: v.picklist(['single', 'double', 'suite']),
      nights: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14)), 2),
    }), { key: 'room' });
    if (room.action !== 'accept' || !room.content) return { content: [{ type: 'text', text: `No room for ${guest} (${room.action}).` }] };
    const { room: kind, nights } = room.content;
    const total = RATES[kind]! * (nights ?? 2);
    const ok = await server.elicitation(`Book a ${kind} room for ${nights} nights at ${total} EUR?`, v.object({ confirm: v.boolean() }), { key: 'confirm' });
    if (ok.action !== 'accept' || ok.content?.confirm !== true) return { content: [{ type: 'text', text: `Not booked for ${guest}.` }] };
    return { content: [{ type: 'text', text: `Booked for ${guest}: ${kind} room, ${nights} nights, ${total} EUR.` }] };
  });
  server.tool({
    name: 'room_rates',
    description: 'The nightly rate of each room',
    annotations: { readOnlyHint: true },
  }, () => ({ content: [{ type: 'text', text: Object.entries(RATES).map(([k, r]) => `${k}: ${r} EUR`).join(', ') }] }));
  return server;
}

/** Turns a node:http request into a fetch Request (the form tmcp's transport takes). */
async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0;
  return new Request(new URL(req.url ?? '/', origin), { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined });
}

/** Writes a fetch Response (streamed, for SSE) to a node:http response. */
async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => { headers[name] = value; });
  res.writeHead(response.status, headers);
  const reader = response.body?.getReader();
  for (let next = await reader?.read(); next && !next.done; next = await reader!.read()) res.write(next.value);
  res.end();
}

export interface RunningTmcp { url: string; close(): Promise<void> }

/** Serves a tmcp server on 127.0.0.1 at a free port; `url` is its /mcp endpoint. */
export async function serveTmcp(opts: { plainState?: boolean } = {}): Promise<RunningTmcp> {
  const transport = new HttpTransport(createTmcpServer(opts), { path: '/mcp' });
  let origin = '';
  const http = createServer((req, res) => {
    void (async () => {
      const response = await transport.respond(await toRequest(req, origin));
      await sendResponse(res, response ?? new Response('not found', { status: 404 }));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`tmcp peer failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}
