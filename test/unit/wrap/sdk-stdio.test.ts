// Real peers talking through `mrtr-inspector wrap`: the official SDK v2 stdio client and
// server (2026-07-28 MRTR rounds with signed tokens), and the 1.32 legacy pair (server-to-
// client requests on the pipe). Ground truth is what the client itself sent, collected on
// the client's side of the pipe; the capture the wrap wrote must thread into exactly that.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, type ElicitRequestParams } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { analyze } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { parseKey } from '../../../worker/tokens/index.js';
import { DEMO_STATE_KEY } from '../../../worker/demo-key.js';
import { buildCliIfStale } from '../../support/wrap-process.js';
import { eventually } from '../relay/relay-harness.js';

beforeAll(buildCliIfStale, 120_000);

const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
// MRTR_RELAY_DIR beside the capture: an inspector of the user's running on this machine must
// not be found (wrap would post to it and write nothing to the file).
const wrapped = (name: string, file: string, server: string) => ({
  command: process.execPath,
  args: ['cli/bin.js', 'wrap', '--name', name, '--capture', file, '--', process.execPath, TSX, server],
  env: { PATH: process.env.PATH ?? '', MRTR_RELAY_TOKEN: '', MRTR_RELAY_DIR: dirname(file) },
  stderr: 'pipe' as const,
});

interface Sent { method?: string; id?: unknown; params?: { name?: string } }

// Tool calls per name, as the client put them on the pipe.
function callsByName(sent: readonly Sent[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of sent) if (s.method === 'tools/call' && s.params?.name) m.set(s.params.name, (m.get(s.params.name) ?? 0) + 1);
  return m;
}

async function readCapture(file: string, expected: number) {
  let text = '';
  await eventually(async () => {
    text = await readFile(file, 'utf8').catch(() => '');
    const got = importCapture(text);
    return got.ok && got.exchanges.filter((r) => r.state === 'complete' && r.request.body).length >= expected;
  }, 15_000);
  const got = importCapture(text);
  if (!got.ok) throw new Error(got.error.message);
  return got.exchanges;
}

describe('real SDK peers through mrtr-inspector wrap', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  it('SDK v2 client and server over stdio: every multi-round call threads into one conversation with verified tokens, as the client sent it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-wrap-sdk-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'c.jsonl');
    const transport = new StdioClientTransport(wrapped('demo', file, 'test/peers/stdio/demo-stdio-server.ts'));
    const sent: Sent[] = [];
    const send = transport.send.bind(transport);
    transport.send = (msg) => (sent.push(structuredClone(msg) as Sent), send(msg));
    const client = new Client({ name: 'stdio-peer', version: '1.0.0' }, {
      versionNegotiation: { mode: 'auto' },
      capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
    });
    const fill = (p: ElicitRequestParams) => {
      if (p.mode === 'url') return {};
      const out: Record<string, string | number | boolean> = {};
      for (const [k, prop] of Object.entries(p.requestedSchema.properties)) {
        const s = prop as { type?: string; enum?: string[] };
        out[k] = s.enum ? s.enum[0] : s.type === 'boolean' ? true : s.type === 'number' || s.type === 'integer' ? 1 : `answer ${k}`;
      }
      return out;
    };
    client.setRequestHandler('elicitation/create', async (req) => (req.params.mode === 'url' ? { action: 'accept' as const } : { action: 'accept' as const, content: fill(req.params) }));
    client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'fake', stopReason: 'endTurn' }));
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///tmp/p', name: 'p' }] }));
    await client.connect(transport);
    const args: Record<string, Record<string, unknown>> = { confirm_action: { action: 'deploy' }, summarize: { text: 'MRTR over stdio.' }, list_workspace: {}, setup_wizard: {} };
    const tools = Object.keys(args);
    for (const name of tools) {
      const r = await client.callTool({ name, arguments: args[name] });
      expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
    }
    await client.close();

    const truth = callsByName(sent);
    expect(truth.get('setup_wizard')).toBe(4);
    const records = await readCapture(file, sent.filter((s) => s.id !== undefined).length);
    for (const r of records) expect(r.request.url).toBe('stdio://demo');
    const key = parseKey(DEMO_STATE_KEY);
    if (!key.ok) throw new Error(key.error);
    const a = await analyze(records, { keys: [key.key] });
    for (const name of tools) {
      const convs = a.conversations.filter((c) => c.method === 'tools/call' && c.name === name);
      expect(convs, name).toHaveLength(1);
      const c = convs[0];
      expect(c.rounds, name).toHaveLength(truth.get(name)!);
      expect(c.status).toBe('complete');
      expect(c.era).toBe('2026-07-28');
      for (const r of c.rounds.slice(1)) {
        expect(r.link).toBe('state');
        expect(a.tokens.get(r.stateSent!)?.verified).toBe(true);
      }
    }
    expect(a.findings.filter((f) => f.rule.startsWith('http/') || f.severity === 'error')).toEqual([]);
  }, 90_000);

  it('legacy SDK 1.32 client and server over stdio: server-initiated requests and the client\'s answers join their calls, numbered in wire order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-wrap-legacy-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'c.jsonl');
    const transport = new LegacyStdioClientTransport(wrapped('legacy', file, 'test/peers/stdio/legacy-stdio-server.ts'));
    const client = new LegacyClient({ name: 'legacy-peer', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'sessions are state' }, model: 'fake', stopReason: 'endTurn' }));
    await client.connect(transport);
    const confirm = await client.callTool({ name: 'legacy_confirm', arguments: {} });
    const summary = await client.callTool({ name: 'legacy_summarize', arguments: {} });
    expect(confirm.content).toEqual([{ type: 'text', text: 'Deployed.' }]);
    expect(summary.content).toEqual([{ type: 'text', text: 'Summary: sessions are state' }]);
    await client.close();

    // initialize, two calls and the client's two answers carry ids.
    const records = await readCapture(file, 5);
    const a = await analyze(records);
    for (const [name, method] of [['legacy_confirm', 'elicitation/create'], ['legacy_summarize', 'sampling/createMessage']]) {
      const c = a.conversations.find((x) => x.name === name)!;
      expect(c.era).toBe('legacy');
      expect(c.status).toBe('complete');
      const it = c.rounds[0].legacy ?? [];
      expect(it.map((x) => x.method)).toEqual([method]);
      expect(it[0].answeredIn).toBeDefined();
      // The call's own record and the client's answer: both in the conversation.
      expect(c.exchanges).toEqual([c.rounds[0].exchange, it[0].answeredIn].sort((x, y) => x! - y!));
      // Numbered as the lines went: the call before the client's answer to its server request.
      expect(c.rounds[0].exchange).toBeLessThan(it[0].answeredIn!);
    }
    expect(a.findings.filter((f) => f.rule.startsWith('http/') || f.rule.startsWith('legacy/'))).toEqual([]);
  }, 90_000);

  it('legacy SDK 1.32 calls in flight at once over stdio: a server request joins the one call still waiting when the client answered it, and one that stays ambiguous is left unjoined, never joined to the wrong call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-wrap-legacy-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'c.jsonl');
    const transport = new LegacyStdioClientTransport(wrapped('legacy', file, 'test/peers/stdio/legacy-stdio-server.ts'));
    const client = new LegacyClient({ name: 'legacy-peer', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
    // The user takes a while to confirm; the model answers at once.
    client.setRequestHandler(ElicitRequestSchema, async () => {
      await new Promise((r) => setTimeout(r, 1000));
      return { action: 'accept', content: { confirm: true } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'sessions are state' }, model: 'fake', stopReason: 'endTurn' }));
    await client.connect(transport);
    const [confirm, summary] = await Promise.all([
      client.callTool({ name: 'legacy_confirm', arguments: {} }),
      client.callTool({ name: 'legacy_summarize', arguments: {} }),
      client.listTools(),
      client.listTools(),
    ]);
    expect(confirm.content).toEqual([{ type: 'text', text: 'Deployed.' }]);
    expect(summary.content).toEqual([{ type: 'text', text: 'Summary: sessions are state' }]);
    await client.close();

    // initialize, four calls and the client's two answers carry ids.
    const records = await readCapture(file, 7);
    const a = await analyze(records);
    // The elicitation: when the user answered it, legacy_summarize was done (its sampling
    // answered at once), so only legacy_confirm was still waiting.
    const c = a.conversations.find((x) => x.name === 'legacy_confirm')!;
    const it = c.rounds[0].legacy ?? [];
    expect(it.map((x) => x.method)).toEqual(['elicitation/create']);
    expect(it[0].answeredIn).toBeGreaterThan(c.rounds[0].exchange);
    // The sampling request was answered while both calls waited: nothing on the wire says
    // which asked, so it joins legacy_summarize or nothing, never legacy_confirm.
    const s = a.conversations.find((x) => x.name === 'legacy_summarize')!;
    expect((s.rounds[0].legacy ?? []).map((x) => x.method).filter((m) => m !== 'sampling/createMessage')).toEqual([]);
  }, 90_000);

  it('four SDK 1.32 calls at once to a server-everything-like server: its elicitation joins the call that asked it, and a sampling request answered while two asking calls waited stays unjoined, never joined to the wrong call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-wrap-legacy-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'c.jsonl');
    const transport = new LegacyStdioClientTransport(wrapped('everything', file, 'test/peers/stdio/everything-like-server.ts'));
    const client = new LegacyClient({ name: 'legacy-peer', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
    // What reached the client's handlers (ground truth: each tool asks one thing of its own).
    const asked: { method: string; meta: unknown }[] = [];
    // The user answers the form once every other call is back; the model answers at once.
    let othersBack!: () => void;
    const others = new Promise<void>((r) => (othersBack = r));
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push({ method: req.method, meta: req.params._meta });
      await others;
      return { action: 'accept', content: { color: 'blue' } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      asked.push({ method: req.method, meta: req.params._meta });
      return { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'fake', stopReason: 'endTurn' };
    });
    await client.connect(transport);
    const sample = client.callTool({ name: 'sampleLLM', arguments: { prompt: 'x' } });
    const elicit = client.callTool({ name: 'startElicitation', arguments: {} });
    const quick = [client.callTool({ name: 'echo', arguments: { message: 'm' } }), client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })];
    void Promise.all([sample, ...quick]).then(() => othersBack());
    const results = await Promise.all([sample, elicit, ...quick]);
    expect(results.map((r) => r.isError ?? false)).toEqual([false, false, false, false]);
    await client.close();
    // Nothing in the server's requests names the call (SDK 1.x keeps relatedRequestId off stdio).
    expect(asked.map((a) => a.meta)).toEqual([undefined, undefined]);

    // initialize, four calls and the client's two answers carry ids.
    const records = await readCapture(file, 7);
    const a = await analyze(records);
    const joined = (name: string) => a.conversations.find((x) => x.name === name)!.rounds.flatMap((r) => r.legacy ?? []).map((x) => x.method);
    // When the user answered, every other call was back: only startElicitation was waiting.
    expect(joined('startElicitation')).toEqual(['elicitation/create']);
    const e = a.conversations.find((x) => x.name === 'startElicitation')!;
    expect(e.rounds[0].legacy![0].answeredIn).toBeGreaterThan(e.rounds[0].exchange);
    // The model answered while sampleLLM and startElicitation both waited, and the request
    // names neither: left open, on no call.
    for (const name of ['sampleLLM', 'echo', 'add']) expect(joined(name), name).toEqual([]);
    expect(a.findings.filter((f) => f.rule.startsWith('http/') || f.rule.startsWith('legacy/'))).toEqual([]);
  }, 90_000);
});
