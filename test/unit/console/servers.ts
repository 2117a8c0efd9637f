// Servers the Console tests talk to, each on 127.0.0.1 at a random port, each stopped by
// the test that started it: the embedded demo (test/peers/serve-demo.ts), an official SDK
// v2 server of our own with a two-round tool under a non-ASCII name, and a "changed" demo
// whose final texts differ (a server that regressed, for replay).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, createMcpHandler, createRequestStateCodec, fromJsonSchema, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { createDemoHandler } from '../../../server/demo/handler.js';
import type { BuiltRequest } from '../../../worker/console/types.js';
import { buildRequest, capabilitiesFrom } from '../../../worker/console/request.js';

import { serveHandler, type RunningDemo } from '../../peers/serve-demo.js';

export { serveDemo, serveHandler, type RunningDemo } from '../../peers/serve-demo.js';

/** A running server and how to stop it. */
export type Running = RunningDemo;

/** The non-ASCII tool of the SDK server (its Mcp-Name must travel base64-encoded). */
export const CAFE_TOOL = 'café_order';
const CAFE_KEY = 'console-test-key-0123456789abcdef-0123456789';

/** An official SDK v2 server: `café_order` asks for a size (form), then for sugar (form), then completes. */
export async function serveSdkServer(): Promise<Running> {
  const codec = createRequestStateCodec<{ step: number; size?: string }>({ key: CAFE_KEY, ttlSeconds: 300 });
  const factory = () => {
    const server = new McpServer({ name: 'console-test-sdk-server', version: '1.0.0' }, { requestState: { verify: codec.verify } });
    // `x-mcp-header` is a 2026 annotation the SDK's JSON Schema type does not list yet.
    const schema: Record<string, unknown> = { type: 'object', properties: { drink: { type: 'string' }, table: { type: 'integer', 'x-mcp-header': 'Table' } }, required: ['drink'] };
    const inputSchema = fromJsonSchema<{ drink: string; table?: number }>(schema as never);
    // The SDK warns (on stderr) that "é" is outside SEP-986's tool name alphabet: that is the point here.
    const warn = console.warn;
    console.warn = () => {};
    try {
      register(server, inputSchema);
    } finally {
      console.warn = warn;
    }
    return server;
  };
  const register = (server: McpServer, inputSchema: ReturnType<typeof fromJsonSchema<{ drink: string; table?: number }>>) => {
    server.registerTool(CAFE_TOOL, { description: 'Two rounds: size, then sugar', inputSchema }, async ({ drink }, ctx) => {
      const state = ctx.mcpReq.requestState<{ step: number; size?: string }>();
      if (!state) {
        return inputRequired({
          inputRequests: { size: inputRequired.elicit({ message: 'Which size?', requestedSchema: { type: 'object', properties: { size: { type: 'string', enum: ['small', 'large'] } }, required: ['size'] } }) },
          requestState: await codec.mint({ step: 1 }, ctx),
        });
      }
      if (state.step === 1) {
        const a = inputResponse(ctx.mcpReq.inputResponses, 'size');
        const size = a.kind === 'elicit' ? String(a.content?.size ?? 'small') : 'small';
        return inputRequired({
          inputRequests: { sugar: inputRequired.elicit({ message: 'How many sugars?', requestedSchema: { type: 'object', properties: { sugars: { type: 'integer', minimum: 0, maximum: 3 } }, required: ['sugars'] } }) },
          requestState: await codec.mint({ step: 2, size }, ctx),
        });
      }
      const a = inputResponse(ctx.mcpReq.inputResponses, 'sugar');
      const sugars = a.kind === 'elicit' ? Number(a.content?.sugars ?? 0) : 0;
      return { content: [{ type: 'text' as const, text: `A ${state.size} ${drink} with ${sugars} sugar(s).` }] };
    });
  };
  const handler = createMcpHandler(factory, { responseMode: 'json', keepAliveMs: 0 });
  return serveHandler(handler);
}

/** The demo with one regression: every final text result says something else. */
export async function serveChangedDemo(): Promise<Running> {
  const demo = createDemoHandler();
  return serveHandler({
    async fetch(req) {
      const res = await demo.fetch(req);
      if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) return res;
      const text = (await res.text()).replace(/"text":"(Done|Created workspace)/g, '"text":"CHANGED $1');
      const headers = new Headers(res.headers);
      headers.delete('content-length');
      return new Response(text, { status: res.status, headers });
    },
    close: () => demo.close(),
  });
}

/** A running server that notes the headers of every request it receives. */
export type RecordingServer = Running & { readonly headers: Record<string, string>[] };

/** The embedded demo, noting each request's headers (lower-case names): what a server sees. */
export async function serveRecordingDemo(): Promise<RecordingServer> {
  const demo = createDemoHandler();
  const headers: Record<string, string>[] = [];
  const running = await serveHandler({
    fetch(req) {
      const h: Record<string, string> = {};
      req.headers.forEach((value, name) => (h[name] = value));
      headers.push(h);
      return demo.fetch(req);
    },
    close: () => demo.close(),
  });
  return { ...running, headers };
}

/** The credentials credentialedHar adds to every recorded request. */
export const AUTH = 'Bearer s3cret-token';
export const API_KEY = 'key-0123456789';

/** The recorded SDK session (test/fixtures/sdk/sdk-v2-auto.har) as if sent to `url` with an Authorization and an X-API-Key header. */
export function credentialedHar(url: string): string {
  const har = JSON.parse(readFileSync('test/fixtures/sdk/sdk-v2-auto.har', 'utf8'));
  for (const e of har.log.entries) {
    e.request.url = url;
    e.request.headers.push({ name: 'Authorization', value: AUTH }, { name: 'X-API-Key', value: API_KEY });
  }
  return JSON.stringify(har);
}

/** Every input capability the Console can declare. */
export const ALL_CAPS = capabilitiesFrom({ elicitationForm: true, elicitationUrl: true, sampling: true, roots: true });

/** A tools/call as the Console builds it, declaring every input capability. */
export function toolCall(name: string, args: Record<string, unknown> = {}, id = 1, inputSchema?: unknown): BuiltRequest {
  return buildRequest({ method: 'tools/call', params: { name, arguments: args }, id, capabilities: ALL_CAPS, clientInfo: { name: 'console-test', version: '1.0.0' }, ...(inputSchema !== undefined ? { inputSchema } : {}) });
}

/** A URL on 127.0.0.1 where nothing listens (a port just freed), for "unreachable" tests. */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}
