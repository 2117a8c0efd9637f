// Records the official tasks-extension client (@modelcontextprotocol/ext-tasks 0.2.2 over
// the SDK v2 client 2.4.0) driving the embedded demo's task tool, research_report, through
// the inspector's relay, and writes test/fixtures/tasks/ext-tasks.har plus its ground truth
// in test/fixtures/tasks/manifest.json (from what the client sent and was asked, never from
// our analysis). Run: npx tsx test/peers/record-tasks.ts
//
// The chain: client → recording proxy → relay (/relay/<token>/demo) → demo. The SDK client
// negotiates and lists; ext-tasks sends the task's tools/call and tasks/* itself through
// `rawDispatch` (the SDK's codecs reject the v2 task shapes), here a plain fetch through the proxy
// (test/support/task-flow.ts's).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import { createDemoHandler } from '../../server/demo/handler.js';
import { createRelay } from '../../server/relay/relay.js';
import { startRecordingProxy } from './recording-proxy.js';
import { buildFixture, createCallTagger, writeManifestEntry, type PlannedCall } from './call-tagger.js';
import type { HarEntry } from './har-types.js';
import { rawDispatch } from '../support/task-flow.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/tasks/', import.meta.url));
const CLIENT_INFO = { name: 'ext-tasks-recorder', version: '1.0.0' };
const CAPABILITIES = { elicitation: { form: {} }, sampling: {} };
const VERSION = '2026-07-28';
const LABEL = 'task research_report';

// The relay on 127.0.0.1:<random> with the real demo, capturing into a temp dir.
async function startRelay(): Promise<{ demoUrl: string; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mrtr-record-tasks-'));
  const token = randomBytes(18).toString('base64url');
  const relay = createRelay({ createDemo: () => createDemoHandler(), token, jsonlPath: join(dir, 'capture.jsonl'), warn: () => undefined });
  const server = createServer((req, res) => relay.handle(req, res, () => res.writeHead(404).end('not the relay')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    demoUrl: `http://127.0.0.1:${port}/relay/${token}/demo`,
    async close() {
      await relay.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const bodyOf = (e: HarEntry) => JSON.parse(e.request.postData?.text ?? '{}') as { method?: string; params?: Record<string, unknown> };
const answerOf = (e: HarEntry) => JSON.parse(e.response.content.text ?? '{}') as { result?: Record<string, unknown> };

const tagger = createCallTagger();
const relay = await startRelay();
const proxy = await startRecordingProxy({ target: relay.demoUrl, client: 'ext-tasks 0.2.2 + sdk-v2-client', tagRequest: tagger.tagRequest });
const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: 'auto' }, capabilities: CAPABILITIES });
const asked: { key: string; kind: string }[] = [];
let outcome = '';
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { fetch: tagger.fetch }));
  await client.listTools();
  const session = createTaskSessionFromClient(client, {
    endpointId: 'embedded-demo',
    rawDispatch: rawDispatch(proxy.url, tagger.fetch),
    v2RequestFraming: { protocolVersion: VERSION, clientInfo: CLIENT_INFO, clientCapabilities: CAPABILITIES },
    onInputRequest: async (request, ctx) => {
      asked.push({ key: ctx.inputId ?? '(no key)', kind: request.kind });
      if (request.kind === 'elicitation') return { action: 'accept', content: { topic: 'tides', depth: 'brief' } } as never;
      if (request.kind === 'sampling') return { role: 'assistant', content: { type: 'text', text: 'Tides rise and fall twice a day.' }, model: 'recorded-fake-model', stopReason: 'endTurn' } as never;
      return { roots: [] } as never;
    },
  });
  try {
    const settled = await tagger.within(LABEL, async () => {
      const execution = await session.callTool('research_report', {});
      if (execution.kind !== 'task') throw new Error('research_report did not run as a task');
      return execution.settle();
    });
    outcome = settled.outcome.status;
    if (settled.outcome.status !== 'completed') throw new Error(`the task ended ${JSON.stringify(settled.outcome)}`);
  } finally {
    await session.close();
  }
} finally {
  await client.close();
}

await mkdir(FIXTURES, { recursive: true });
await proxy.writeHar(`${FIXTURES}ext-tasks.har`);
const har = proxy.har();
await proxy.close();
await relay.close();

const planned: PlannedCall[] = [{ label: LABEL, method: 'tools/call', name: 'research_report', finalOutcome: 'complete', note: 'a task: created by tools/call, polled with tasks/get, answered with tasks/update (a form, then a sampling request), completed' }];
const fixture = buildFixture(
  { era: '2026-07-28', client: '@modelcontextprotocol/ext-tasks 0.2.2 over @modelcontextprotocol/client 2.4.0', server: 'embedded demo research_report (tasks served by server/demo/task-front.ts) behind the relay' },
  har.log.entries,
  proxy.tagOf,
  planned,
);
// The task's ground truth, from what the client sent and was asked.
const call = fixture.calls[0];
const entries = call.exchanges.map((seq) => ({ seq, entry: har.log.entries[seq] }));
const steps = entries.map(({ entry }) => ({ 'tools/call': 'create', 'tasks/get': 'get', 'tasks/update': 'update', 'tasks/cancel': 'cancel' })[bodyOf(entry).method ?? ''] ?? '?');
const created = answerOf(entries[0].entry).result;
const last = answerOf(entries[entries.length - 1].entry).result;
// Polls that repeat the previous poll's status and outstanding keys fold into its round.
let folded = 0;
let prev = '';
for (const { entry } of entries) {
  const method = bodyOf(entry).method;
  const r = answerOf(entry).result;
  const seen = method === 'tasks/get' ? `${String(r?.status)}:${Object.keys((r?.inputRequests as object | undefined) ?? {}).join(',')}` : '';
  if (seen !== '' && seen === prev) folded++;
  prev = seen;
}
const task = {
  taskId: String(created?.taskId),
  finalStatus: String(last?.status),
  keys: asked.map((a) => a.key),
  kinds: asked.map((a) => a.kind),
  steps,
  updates: entries.filter(({ entry }) => bodyOf(entry).method === 'tasks/update').map(({ seq }) => seq),
  foldedPolls: folded,
};
await writeManifestEntry(`${FIXTURES}manifest.json`, 'none (the task tool mints no requestState)', 'ext-tasks.har', { ...fixture, calls: [{ ...call, task }] } as never);
console.log(`ext-tasks.har: ${fixture.entryCount} entries; the task: ${call.exchanges.length} exchanges (${steps.join(' ')}), keys ${task.keys.join(', ')}, ${outcome}`);
