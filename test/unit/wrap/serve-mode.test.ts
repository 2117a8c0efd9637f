// `mrtr-inspector wrap --serve`: a stdio server attached to the relay as target stdio-<name>,
// driven over HTTP by callers that know nothing of stdio.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildCliIfStale, ECHO_SERVER } from '../../support/wrap-process.js';
import { serveWrapped, stopChildren, targetAttached } from '../../support/wrap-serve.js';
import { parseJsonl, send, startRelay, TOKEN, type RelayHarness } from '../relay/relay-harness.js';
import { readFile } from 'node:fs/promises';

beforeAll(buildCliIfStale, 120_000);

const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const PEER = fileURLToPath(new URL('../../peers/relay-client.ts', import.meta.url));



const post = (h: RelayHarness, path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(h.port, { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('wrap --serve', () => {
  let h: RelayHarness | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    await stopChildren(children);
    await h?.close();
    h = undefined;
  });

  it('makes the SDK v2 demo server over stdio a relay target that an SDK client drives through all rounds of the wizard, recorded by the relay', async () => {
    h = await startRelay();
    children.push(serveWrapped(h, 'demo', [process.execPath, TSX, 'test/peers/stdio/demo-stdio-server.ts']));
    await targetAttached(h, 'stdio-demo');
    const run = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const c = spawn(process.execPath, [TSX, PEER, h!.relayUrl('stdio-demo')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      c.stdout.on('data', (d) => (out += d));
      c.stderr.on('data', (d) => (err += d));
      c.on('close', (code) => resolve({ code, out, err }));
    });
    expect(run.err).toBe('');
    expect(JSON.parse(run.out)).toEqual({ ok: true, text: 'Created workspace "Relay Labs" on the team plan.', asked: ['name', 'plan', 'confirm'] });
    await h.relay.close();
    const { records } = parseJsonl(await readFile(h.jsonl, 'utf8'));
    const calls = records.filter((r) => r.request.body?.includes('"tools/call"'));
    expect(calls).toHaveLength(4);
    for (const r of calls) expect(r).toMatchObject({ state: 'complete', response: { status: 200 } });
  }, 60_000);

  it('answers each caller with its own id when two callers use the same one, on the page\'s same-origin endpoint', async () => {
    h = await startRelay();
    children.push(serveWrapped(h, 'echo', [process.execPath, ECHO_SERVER]));
    await targetAttached(h, 'stdio-echo');
    const msg = (tag: string) => ({ jsonrpc: '2.0', id: 1, method: 'test/split', params: { tag } });
    const [a, b] = await Promise.all([
      post(h, '/relay/stdio/echo', msg('a'), { origin: h.origin }),
      post(h, '/relay/stdio/echo', msg('b'), { origin: h.origin }),
    ]);
    expect(a.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: { tag: 'a' } } });
    expect(b.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: { tag: 'b' } } });
  }, 30_000);

  it('refuses the page endpoint to other origins and callers without one, attaching without the token, and says how to attach when nothing is', async () => {
    h = await startRelay();
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await post(h, '/relay/stdio/none', body, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(h, '/relay/stdio/none', body)).status).toBe(403);
    // Same origin but without the page's cookie: any local program can send an Origin header.
    expect((await post(h, '/relay/stdio/none', body, { origin: h.origin, cookie: '' })).status).toBe(403);
    expect((await post(h, '/relay/stdio-attach/x', {})).status).toBe(403);
    const missing = await post(h, '/relay/stdio/none', body, { origin: h.origin });
    expect(missing.status).toBe(502);
    expect(missing.text).toContain('mrtr-inspector wrap --serve --name none');
  });
});
