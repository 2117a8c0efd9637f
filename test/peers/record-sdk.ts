// Records the official SDK v2 client talking to the embedded demo server through the
// recording proxy, and writes test/fixtures/sdk/{sdk-v2-auto,sdk-v2-manual}.har plus their
// ground truth in manifest.json. Run: npx tsx test/peers/record-sdk.ts
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type ElicitRequestParams } from '@modelcontextprotocol/client';
import { serveDemo } from './serve-demo.js';
import { startRecordingProxy } from './recording-proxy.js';
import { buildFixture, createCallTagger, writeManifestEntry, type PlannedCall } from './call-tagger.js';
import { flipMiddleChar } from './tamper.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/sdk/', import.meta.url));
const MANIFEST = `${FIXTURES}manifest.json`;
const STATE_KEY = 'DEMO_STATE_KEY from worker/demo-key.ts';
const CLIENT_INFO = { name: 'mrtr-recorder', version: '1.0.0' };
const CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

// Picks deterministic answers for any form: known keys get fixed values, others follow type.
const PICKS: Record<string, unknown> = { name: 'Acme Labs', plan: 'pro', priority: 'high', strictness: 'gentle', confirm: true };
function fillForm(params: ElicitRequestParams): Record<string, unknown> {
  if (params.mode === 'url') return {};
  const content: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(params.requestedSchema.properties)) {
    const p = prop as { type?: string; enum?: unknown[]; default?: unknown };
    if (key in PICKS) content[key] = PICKS[key];
    else if (p.enum) content[key] = p.enum[0];
    else if (p.default !== undefined) content[key] = p.default;
    else if (p.type === 'boolean') content[key] = true;
    else if (p.type === 'number' || p.type === 'integer') content[key] = 1;
    else content[key] = `recorded ${key}`;
  }
  return content;
}

// A v2 client negotiating 2026-07-28, answering elicitation, sampling and roots itself.
function makeClient(autoFulfill: boolean): Client {
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: 'auto' },
    capabilities: CAPABILITIES,
    inputRequired: { autoFulfill },
  });
  client.setRequestHandler('elicitation/create', async (req) =>
    req.params.mode === 'url' ? { action: 'accept' as const } : { action: 'accept' as const, content: fillForm(req.params) as Record<string, string | number | boolean> },
  );
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'MRTR lets a server ask for input by returning early.' },
    model: 'recorded-fake-model',
    stopReason: 'endTurn',
  }));
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///home/demo/project', name: 'project' }] }));
  return client;
}

// Auto mode: every tool, the prompt and the resource, once each, one after another.
async function recordAuto(demoUrl: string): Promise<void> {
  const tagger = createCallTagger();
  const proxy = await startRecordingProxy({ target: demoUrl, client: 'sdk-v2-client (auto)', tagRequest: tagger.tagRequest });
  const client = makeClient(true);
  const planned: PlannedCall[] = [];
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { fetch: tagger.fetch }));
    await client.listTools();
    const tools: [string, Record<string, unknown>][] = [
      ['confirm_action', { action: 'deploy to staging' }],
      ['open_dashboard', {}],
      ['summarize', { text: 'Multi round-trip requests let a server answer early and ask the client for input.' }],
      ['list_workspace', {}],
      ['setup_wizard', {}],
      ['busy', {}],
      ['slow_report', { steps: 3 }],
    ];
    for (const [name, args] of tools) {
      const label = `tools/call ${name}`;
      planned.push({ label, method: 'tools/call', name, finalOutcome: 'complete' });
      // Only slow_report gets a progressToken, so its stream carries progress notifications.
      const options = name === 'slow_report' ? { onprogress: () => {} } : undefined;
      const result = await tagger.within(label, () => client.callTool({ name, arguments: args }, options));
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    }
    planned.push({ label: 'prompts/get review_prompt', method: 'prompts/get', name: 'review_prompt', finalOutcome: 'complete' });
    await tagger.within('prompts/get review_prompt', () => client.getPrompt({ name: 'review_prompt' }));
    planned.push({ label: 'resources/read demo://secret-note', method: 'resources/read', name: 'demo://secret-note', finalOutcome: 'complete' });
    await tagger.within('resources/read demo://secret-note', () => client.readResource({ uri: 'demo://secret-note' }));
  } finally {
    await client.close();
  }
  await proxy.writeHar(`${FIXTURES}sdk-v2-auto.har`);
  const har = proxy.har();
  await proxy.close();
  const fixture = buildFixture(
    { era: '2026-07-28', client: '@modelcontextprotocol/client 2.4.0 (autoFulfill)', server: 'embedded demo (@modelcontextprotocol/server 2.4.0)' },
    har.log.entries,
    proxy.tagOf,
    planned,
  );
  await writeManifestEntry(MANIFEST, STATE_KEY, 'sdk-v2-auto.har', fixture);
  console.log(`sdk-v2-auto.har: ${fixture.entryCount} entries, ${fixture.calls.length} calls`);
}

type Raw = { resultType?: string; inputRequests?: Record<string, { method: string; params: unknown }>; requestState?: string; isError?: boolean };

// Manual mode: the 3-round wizard stepped by hand, two interleaved confirm_action calls
// answered in the opposite order, and one retry whose requestState was tampered with.
async function recordManual(demoUrl: string): Promise<void> {
  const tagger = createCallTagger();
  const proxy = await startRecordingProxy({ target: demoUrl, client: 'sdk-v2-client (manual)', tagRequest: tagger.tagRequest });
  const client = makeClient(false);
  const planned: PlannedCall[] = [];
  const extra: Record<string, { tampered: number }> = {};
  const send = (params: Record<string, unknown>) =>
    client.request({ method: 'tools/call', params }, { allowInputRequired: true }) as Promise<Raw>;
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { fetch: tagger.fetch }));

    planned.push({ label: 'wizard', method: 'tools/call', name: 'setup_wizard', finalOutcome: 'complete' });
    await tagger.within('wizard', async () => {
      const base = { name: 'setup_wizard', arguments: {} };
      let reply = await send(base);
      for (let round = 0; reply.resultType === 'input_required' && round < 5; round++) {
        const inputResponses: Record<string, unknown> = {};
        for (const [key, req] of Object.entries(reply.inputRequests ?? {})) {
          inputResponses[key] = { action: 'accept', content: fillForm(req.params as ElicitRequestParams) };
        }
        reply = await send({ ...base, inputResponses, requestState: reply.requestState });
      }
      if (reply.resultType === 'input_required' || reply.isError) throw new Error('wizard did not complete');
    });

    // Two calls of the same tool in flight at once; B is answered (and completes) before A.
    const a = { name: 'confirm_action', arguments: { action: 'deploy to staging' } };
    const b = { name: 'confirm_action', arguments: { action: 'rotate the API keys' } };
    planned.push({ label: 'parallel A', method: 'tools/call', name: 'confirm_action', finalOutcome: 'complete', note: 'round 1 in parallel with B; answered after B' });
    planned.push({ label: 'parallel B', method: 'tools/call', name: 'confirm_action', finalOutcome: 'complete', note: 'round 1 in parallel with A; answered first' });
    const [firstA, firstB] = await Promise.all([tagger.within('parallel A', () => send(a)), tagger.within('parallel B', () => send(b))]);
    const answer = (priority: string, note: string) => ({ confirm: { action: 'accept', content: { confirm: true, priority, note } } });
    await tagger.within('parallel B', () => send({ ...b, inputResponses: answer('high', 'B first'), requestState: firstB.requestState }));
    await tagger.within('parallel A', () => send({ ...a, inputResponses: answer('low', 'A second'), requestState: firstA.requestState }));

    // The tampered retry: one character flipped in the middle of the token's body.
    const c = { name: 'confirm_action', arguments: { action: 'delete the demo data' } };
    planned.push({ label: 'tampered', method: 'tools/call', name: 'confirm_action', finalOutcome: 'error', note: 'retry carries the issued requestState with one character flipped; the server answers -32602' });
    await tagger.within('tampered', async () => {
      const first = await send(c);
      extra.tampered = { tampered: proxy.nextSeq };
      const rejected = await send({ ...c, inputResponses: answer('normal', 'tampered'), requestState: flipMiddleChar(first.requestState ?? '') }).then(
        () => false,
        (err: { code?: number }) => err.code === -32602,
      );
      if (!rejected) throw new Error('the tampered retry was not rejected with -32602');
    });
  } finally {
    await client.close();
  }
  await proxy.writeHar(`${FIXTURES}sdk-v2-manual.har`);
  const har = proxy.har();
  await proxy.close();
  const fixture = buildFixture(
    { era: '2026-07-28', client: '@modelcontextprotocol/client 2.4.0 (autoFulfill: false, allowInputRequired)', server: 'embedded demo (@modelcontextprotocol/server 2.4.0)' },
    har.log.entries,
    proxy.tagOf,
    planned,
    extra,
  );
  await writeManifestEntry(MANIFEST, STATE_KEY, 'sdk-v2-manual.har', fixture);
  console.log(`sdk-v2-manual.har: ${fixture.entryCount} entries, ${fixture.calls.length} calls`);
}

await mkdir(FIXTURES, { recursive: true });
const demo = await serveDemo();
try {
  await recordAuto(demo.url);
  await recordManual(demo.url);
} finally {
  await demo.close();
}
