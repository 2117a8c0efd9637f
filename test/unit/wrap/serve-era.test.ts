// Serve mode's HTTP front answers for what only HTTP has: the one process behind it speaks
// one era (the SDK v2's serveStdio pins the era of its first caller), and the required 2026
// headers, which a stdio server never sees.
import type { ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { analyze } from '../../../worker/analysis.js';
import { buildCliIfStale, ECHO_SERVER } from '../../support/wrap-process.js';
import { serveWrapped, stopChildren, targetAttached } from '../../support/wrap-serve.js';
import { eventually, parseJsonl, send, startRelay, TOKEN, type RelayHarness } from '../relay/relay-harness.js';

beforeAll(buildCliIfStale, 120_000);

const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const MODERN = '2026-07-28';



const post = (h: RelayHarness, path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(h.port, { method: 'POST', path, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

// A 2026-07-28 tools/call as a client puts it on the wire: _meta envelope and its headers.
const modernCall = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
});
const modernHeaders = (name: string | undefined): Record<string, string> => ({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', ...(name === undefined ? {} : { 'mcp-name': name }) });

describe('wrap --serve: one process, one era; headers checked at the front', () => {
  let h: RelayHarness | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    await stopChildren(children);
    await h?.close();
    h = undefined;
  });

  it('tells an SDK 1.32 client refused by the SDK v2 server after a 2026-07-28 caller which era the process speaks and how to restart it, with HTTP 400', async () => {
    h = await startRelay();
    children.push(serveWrapped(h, 'demo', [process.execPath, TSX, 'test/peers/stdio/demo-stdio-server.ts']));
    await targetAttached(h, 'stdio-demo');
    const url = new URL(h.relayUrl('stdio-demo'));
    // The 2026-07-28 caller first (as the Console is): the SDK v2 client.
    const modern = new Client({ name: 'modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new StreamableHTTPClientTransport(url));
    expect((await modern.listTools()).tools.length).toBeGreaterThan(0);
    await modern.close();
    // Then a legacy client: the server refuses its initialize with -32022.
    const legacy = new LegacyClient({ name: 'legacy', version: '1.0.0' });
    const err = await legacy.connect(new LegacyHttpTransport(url)).then(() => null, (e: Error) => e);
    expect(err?.message).toContain('-32022');
    expect(err?.message).toContain('its first caller made it speak 2026-07-28');
    expect(err?.message).toContain('stop `mrtr-inspector wrap --serve --name demo` and start it again');
    await legacy.close().catch(() => undefined);
    await h.relay.close();
    const { records } = parseJsonl(await readFile(h.jsonl, 'utf8'));
    const init = records.find((r) => r.request.body?.includes('"initialize"') && r.response?.body?.includes('-32022'));
    expect(init?.response?.status).toBe(400);
  }, 60_000);

  it('refuses a 2026-07-28 request missing Mcp-Name or with a mismatched Mcp-Method itself (400, -32020) without passing it on, so lint blames the client, not the stdio server', async () => {
    h = await startRelay();
    children.push(serveWrapped(h, 'echo', [process.execPath, ECHO_SERVER]));
    await targetAttached(h, 'stdio-echo');
    const path = `/relay/${TOKEN}/stdio-echo`;
    const missing = await post(h, path, modernCall(1, 'greet'), modernHeaders(undefined));
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ id: 1, error: { code: -32020, message: expect.stringContaining('Mcp-Name is missing') } });
    const wrongMethod = await post(h, path, modernCall(2, 'greet'), { ...modernHeaders('greet'), 'mcp-method': 'tools/list' });
    expect(wrongMethod.status).toBe(400);
    expect(wrongMethod.json()).toMatchObject({ id: 2, error: { code: -32020, message: expect.stringContaining('Mcp-Method is "tools/list" but the body says "tools/call"') } });
    // Sentinel-encoded names are decoded before comparing, as the spec asks.
    const encoded = await post(h, path, modernCall(3, 'grüß'), modernHeaders(`=?base64?${Buffer.from('grüß').toString('base64')}?=`));
    expect(encoded.status).toBe(200);
    expect(encoded.json()).toMatchObject({ id: 3, result: { echo: { name: 'grüß' } } });
    // Legacy traffic has no such headers and passes.
    const legacy = await post(h, path, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'greet' } });
    expect(legacy.status).toBe(200);
    await h.relay.close();
    const { records } = parseJsonl(await readFile(h.jsonl, 'utf8'));
    const rules = (await analyze(records)).findings.map((f) => f.rule);
    expect(rules).not.toContain('http/mismatch-accepted');
    expect(rules).toContain('http/name-header');
  }, 60_000);

  it('refuses a tasks/get, tasks/update or tasks/cancel whose Mcp-Name is missing or is not its params.taskId (400, -32020, TASK-006), passes the right one on, and lint blames the client alone', async () => {
    h = await startRelay();
    children.push(serveWrapped(h, 'echo', [process.execPath, ECHO_SERVER]));
    await targetAttached(h, 'stdio-echo');
    const path = `/relay/${TOKEN}/stdio-echo`;
    const meta = modernCall(0, 'x').params._meta;
    const task = (id: number, method: string, taskId: string) => ({ jsonrpc: '2.0', id, method, params: { taskId, _meta: meta } });
    const headers = (method: string, name?: string): Record<string, string> => ({ 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) });
    const missing = await post(h, path, task(1, 'tasks/get', 't-1'), headers('tasks/get'));
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ id: 1, error: { code: -32020, message: expect.stringContaining('Mcp-Name is missing but params.taskId is "t-1"') } });
    const other = await post(h, path, task(2, 'tasks/cancel', 't-1'), headers('tasks/cancel', 't-2'));
    expect(other.status).toBe(400);
    expect(other.json()).toMatchObject({ id: 2, error: { code: -32020, message: expect.stringContaining('Mcp-Name is "t-2" but params.taskId is "t-1"') } });
    // Sentinel-encoded, as a taskId outside the header's characters is sent.
    const encoded = await post(h, path, task(3, 'tasks/update', 'tâche-1'), headers('tasks/update', `=?base64?${Buffer.from('tâche-1').toString('base64')}?=`));
    expect(encoded.status).toBe(200);
    expect(encoded.json()).toMatchObject({ id: 3, result: { echo: { taskId: 'tâche-1' } } });
    const right = await post(h, path, task(4, 'tasks/get', 't-1'), headers('tasks/get', 't-1'));
    expect(right.status).toBe(200);
    await h.relay.close();
    const { records } = parseJsonl(await readFile(h.jsonl, 'utf8'));
    const findings = (await analyze(records)).findings;
    expect(findings.filter((f) => f.rule === 'tasks/name-header').map((f) => f.exchange).length).toBe(2);
    expect(findings.map((f) => f.rule)).not.toContain('http/mismatch-accepted');
  }, 60_000);

  it('keeps the era a wrap reports for its running server across a re-attach, and notes it on a refusal of the other era', async () => {
    h = await startRelay();
    // An attach as a wrap whose server already speaks 2026-07-28 makes it (a restarted inspector).
    const lines: string[] = [];
    const attach = httpRequest(new URL('/relay/stdio-attach/pinned', h.origin), { method: 'POST', headers: { 'x-mrtr-relay-token': TOKEN, 'x-mrtr-stdio-era': MODERN, 'content-length': 0 } });
    const res = await new Promise<IncomingMessage>((resolve) => attach.on('response', resolve).end());
    res.setEncoding('utf8');
    res.on('data', (d: string) => lines.push(...d.split('\n').filter(Boolean)));
    const asked = post(h, `/relay/${TOKEN}/stdio-pinned`, { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    await eventually(() => lines.length > 0);
    const sent = JSON.parse(lines[0]) as { id: string };
    const answer = { jsonrpc: '2.0', id: sent.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: [MODERN], requested: '2025-11-25' } } };
    await post(h, '/relay/stdio-attach/pinned/out', answer, { 'x-mrtr-relay-token': TOKEN });
    const got = await asked;
    expect(got.status).toBe(400);
    expect(got.json()).toMatchObject({ id: 7, error: { code: -32022, data: { supported: [MODERN] }, message: expect.stringContaining('its first caller made it speak 2026-07-28') } });
    attach.destroy();
  }, 30_000);
});
