// An official SDK v2 server (@modelcontextprotocol/server 2.4.0) run as its own Node process,
// for the browser tests that point the Console at "someone else's server". Its one tool,
// `plan_trip`, takes three rounds and every kind of input request:
//   round 1  a form elicitation (destination enum, nights integer with a default)
//   round 2  sampling (a one-line pitch, pre-filled from the prompt) and roots/list, together
//   round 3  a form elicitation (book it?)
// Its requestState is the SDK's HMAC codec under SDK_TRIP_KEY, bound to the method and tool
// name, so the inspector can verify it with that key.
//
// Run: node --import tsx test/peers/sdk-trip-server.ts [--cors <origin>]
// Listens on 127.0.0.1 at a free port and prints one JSON line, {"url": ".../mcp"}, once it
// accepts requests. `--cors` answers preflights and adds CORS headers for that origin only;
// without it the server sends none (reach it through the inspector's relay). It exits on
// SIGTERM or SIGINT, and when its stdin closes, so a crashed test runner leaves no orphan.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  createMcpHandler, createRequestStateCodec, fromJsonSchema, inputRequired, inputResponse, McpServer,
  type CallToolResult, type InputRequiredResult, type ServerContext,
} from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';

/** The HMAC key of this server's tokens (at least 32 bytes, as the codec requires). */
export const SDK_TRIP_KEY = 'sdk-trip-server-key-0123456789abcdef-0123';
/** What server/discover reports. */
export const SDK_TRIP_INFO = { name: 'sdk-trip-server', version: '1.0.0' };

interface TripState {
  step: 1 | 2 | 3;
  destination?: string;
  nights?: number;
  pitch?: string;
  roots?: string[];
}

type Reply = CallToolResult | InputRequiredResult;
const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const bind = (ctx: ServerContext) => `${ctx.mcpReq.method}\u0000${ctx.http?.req?.headers.get('mcp-name') ?? ''}`;

function createTripServer(codec: ReturnType<typeof createRequestStateCodec<TripState>>): McpServer {
  const server = new McpServer(SDK_TRIP_INFO, { requestState: { verify: codec.verify } });
  const inputSchema = fromJsonSchema<{ traveller: string }>({
    type: 'object', properties: { traveller: { type: 'string', description: 'Who travels' } }, required: ['traveller'],
  });
  server.registerTool('plan_trip', { description: 'Three rounds: where, a pitch and your roots, then book it', inputSchema }, async ({ traveller }, ctx): Promise<Reply> => {
    const state = ctx.mcpReq.requestState<TripState>();
    const answers = ctx.mcpReq.inputResponses;
    const ask = async (next: TripState, inputRequests: Parameters<typeof inputRequired>[0]['inputRequests']): Promise<Reply> =>
      inputRequired({ inputRequests, requestState: await codec.mint(next, ctx) });
    const askWhere = () => ask({ step: 1 }, {
      where: inputRequired.elicit({
        message: `Where should ${traveller} go?`,
        requestedSchema: {
          type: 'object',
          properties: {
            destination: { type: 'string', title: 'Destination', enum: ['Lisbon', 'Kyoto', 'Quito'] },
            nights: { type: 'integer', title: 'Nights', minimum: 1, maximum: 14, default: 3 },
          },
          required: ['destination'],
        },
      }),
    });
    if (!state) return askWhere();
    if (state.step === 1) {
      const where = inputResponse(answers, 'where');
      if (where.kind !== 'elicit') return askWhere();
      if (where.action !== 'accept') return text(`No trip for ${traveller} (${where.action}).`);
      const destination = String(where.content?.destination ?? 'Lisbon');
      const nights = Number(where.content?.nights ?? 3);
      return ask({ step: 2, destination, nights }, {
        pitch: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Write one line selling ${nights} nights in ${destination}.` } }],
          maxTokens: 60,
        }),
        roots: inputRequired.listRoots(),
      });
    }
    if (state.step === 2) {
      const pitch = inputResponse(answers, 'pitch');
      const roots = inputResponse(answers, 'roots');
      if (pitch.kind !== 'sampling' || roots.kind !== 'roots') return ask(state, {
        ...(pitch.kind !== 'sampling' ? { pitch: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Write one line selling ${state.nights} nights in ${state.destination}.` } }], maxTokens: 60 }) } : {}),
        ...(roots.kind !== 'roots' ? { roots: inputRequired.listRoots() } : {}),
      });
      const block = Array.isArray(pitch.result.content) ? pitch.result.content[0] : pitch.result.content;
      const line = block && block.type === 'text' ? block.text : '(no text)';
      return ask({ ...state, step: 3, pitch: line, roots: roots.roots.map((r) => r.uri) }, {
        book: inputRequired.elicit({
          message: `Book ${state.nights} nights in ${state.destination}?`,
          requestedSchema: { type: 'object', properties: { book: { type: 'boolean', title: 'Book it' } }, required: ['book'] },
        }),
      });
    }
    const book = inputResponse(answers, 'book');
    if (book.kind !== 'elicit' || book.action !== 'accept' || book.content?.book !== true) return text(`Not booked for ${traveller}.`);
    return text(`Booked for ${traveller}: ${state.nights} nights in ${state.destination}. Pitch: ${state.pitch} Itinerary saved under ${(state.roots ?? []).join(', ') || 'nowhere'}.`);
  });
  return server;
}

function corsHeaders(origin: string, requested: string | undefined): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    vary: 'Origin',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': requested ?? 'content-type, accept, mcp-protocol-version, mcp-method, mcp-name',
    'access-control-expose-headers': 'mcp-session-id, content-type',
    'access-control-max-age': '600',
  };
}

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf('--cors');
  const cors = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && !cors) throw new Error('--cors needs an origin, e.g. --cors http://127.0.0.1:5173');
  const codec = createRequestStateCodec<TripState>({ key: SDK_TRIP_KEY, ttlSeconds: 600, bind });
  const mcp = createMcpHandler(() => createTripServer(codec), { responseMode: 'auto', keepAliveMs: 0 });
  const handle = toNodeHandler(mcp);
  const checkHost = localhostHostValidation();
  const checkOrigin = localhostOriginValidation();
  const server = createServer((req, res) => {
    if (!checkHost(req, res) || !checkOrigin(req, res)) return;
    if (cors && req.headers.origin === cors) {
      const headers = corsHeaders(cors, req.headers['access-control-request-headers']);
      if (req.method === 'OPTIONS') {
        res.writeHead(204, headers).end();
        return;
      }
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    }
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void mcp.close().finally(() => {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` })}\n`);
}

// Only as a script: the tests import the constants above without starting a server.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`sdk-trip-server failed: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  });
}
