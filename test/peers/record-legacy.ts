// Records a 2025-11-25 session between the legacy SDK (@modelcontextprotocol/sdk 1.32)
// server and client through the recording proxy: server-initiated elicitation/create and
// sampling/createMessage on the call's SSE stream, the client's POSTed answers (202), the
// standalone GET stream and the closing DELETE. Writes test/fixtures/sdk/legacy-2025.har
// and its manifest entry. Run: npx tsx test/peers/record-legacy.ts
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { startRecordingProxy } from './recording-proxy.js';
import { createLegacyServer } from './legacy-server.js';
import { buildFixture, createCallTagger, writeManifestEntry, type PlannedCall } from './call-tagger.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/sdk/', import.meta.url));
const STATE_KEY = 'DEMO_STATE_KEY from worker/demo-key.ts';

// A sessionful 2025-11-25 Streamable HTTP endpoint on 127.0.0.1 (one transport per session).
async function serveLegacy(): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, created),
      });
      created.onclose = () => created.sessionId && sessions.delete(created.sessionId);
      await createLegacyServer().connect(created);
      transport = created;
    }
    if (!transport) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'No valid session' } }));
      return;
    }
    await transport.handleRequest(req, res, body);
  };
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      for (const t of sessions.values()) await t.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

await mkdir(FIXTURES, { recursive: true });
const legacy = await serveLegacy();
const tagger = createCallTagger();
const proxy = await startRecordingProxy({ target: legacy.url, client: 'sdk-1.32-client', tagRequest: tagger.tagRequest });
const client = new Client({ name: 'mrtr-recorder-legacy', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
client.setRequestHandler(CreateMessageRequestSchema, async () => ({
  role: 'assistant',
  content: { type: 'text', text: 'A session ties requests together with Mcp-Session-Id.' },
  model: 'recorded-fake-model',
}));
const transport = new StreamableHTTPClientTransport(new URL(proxy.url), { fetch: tagger.fetch });
const planned: PlannedCall[] = [];
try {
  await client.connect(transport);
  // Give the client's standalone GET stream time to open before the calls.
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const name of ['legacy_confirm', 'legacy_summarize']) {
    planned.push({ label: name, method: 'tools/call', name, finalOutcome: 'complete' });
    const result = await tagger.within(name, () => client.callTool({ name, arguments: {} }));
    if (result.isError) throw new Error(`${name} failed`);
  }
  await transport.terminateSession();
} finally {
  await client.close();
}
await proxy.writeHar(`${FIXTURES}legacy-2025.har`);
const har = proxy.har();
await proxy.close();
await legacy.close();

// The answers are the call's exchanges whose body is a JSON-RPC response, not a request.
const isAnswer = (seq: number) => !('method' in (JSON.parse(har.log.entries[seq].request.postData?.text || '{}') as object));
const fixture = buildFixture(
  { era: '2025-11-25', client: '@modelcontextprotocol/sdk 1.32.2 Client', server: '@modelcontextprotocol/sdk 1.32.2 McpServer (sessionful)' },
  har.log.entries,
  proxy.tagOf,
  planned,
);
for (const call of fixture.calls) {
  call.answerExchanges = call.exchanges.filter(isAnswer);
  call.serverRequestsOn = call.exchanges.find((seq) => !isAnswer(seq));
}
await writeManifestEntry(`${FIXTURES}manifest.json`, STATE_KEY, 'legacy-2025.har', fixture);
console.log(`legacy-2025.har: ${fixture.entryCount} entries, ${fixture.calls.length} calls`);
