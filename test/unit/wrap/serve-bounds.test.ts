// `wrap --serve` against a hostile stdio server: a silent one cannot hold callers (or every
// relay slot) forever, an answer too big to relay reaches its caller as an error, never a
// hang, and the wrapped server never inherits the relay token.
import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serverEnv } from '../../../cli/wrap/start-server.js';
import { buildCliIfStale, startNode, wrapArgv } from '../../support/wrap-process.js';
import { serveWrapped, stopChildren, targetAttached } from '../../support/wrap-serve.js';
import { eventually, send, startRelay, TOKEN, type RelayHarness } from '../relay/relay-harness.js';

beforeAll(buildCliIfStale, 120_000);

const HOSTILE = 'test/peers/stdio/hostile-server.mjs';

const serve = (h: RelayHarness, name: string, args: string[]): ChildProcess => serveWrapped(h, name, [process.execPath, HOSTILE, ...args]);
// Everything the child printed on stderr so far (the wrapped server's stderr passes through).
function stderrOf(c: ChildProcess): () => string {
  let text = '';
  c.stderr!.setEncoding('utf8');
  c.stderr!.on('data', (d: string) => (text += d));
  return () => text;
}
const call = (h: RelayHarness, target: string, id: number) =>
  send(h.port, { method: 'POST', path: `/relay/${TOKEN}/${target}/mcp`, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x' } }) });

describe('wrap --serve bounds', () => {
  let h: RelayHarness | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    await stopChildren(children);
    await h?.close();
    h = undefined;
  });

  // The waiting bound without a clock: the calls wait for as long as the test runs (the
  // default 120 s timeout), and the server's stderr says when it has read each of them.
  it('refuses calls past the waiting bound at once while the others wait, and the demo still answers', async () => {
    h = await startRelay({ stdio: { maxWaiting: 3 } });
    const wrap = serve(h, 'silent', ['silent']);
    children.push(wrap);
    const said = stderrOf(wrap);
    await targetAttached(h, 'stdio-silent');
    for (const id of [1, 2, 3]) void call(h, 'stdio-silent', id).catch(() => undefined);
    await eventually(() => (said().match(/^read /gm) ?? []).length === 3, 20_000);
    const extra = await call(h, 'stdio-silent', 4);
    expect(extra.status).toBe(503);
    expect(extra.json()).toMatchObject({ id: 4, error: { code: -32000, message: expect.stringContaining('3 calls waiting') } });
    const demo = await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/demo/mcp`, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' }, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }) });
    // The demo's own answer (it wants more headers than a bare ping has), not the relay's busy.
    expect(demo.status).not.toBe(503);
    expect(demo.json()).toMatchObject({ jsonrpc: '2.0', id: 9 });
    expect(said()).not.toMatch(/^read 4$/m);
  }, 60_000);

  it('answers a call the server never answers with a JSON-RPC timeout error', async () => {
    h = await startRelay({ stdio: { timeoutMs: 1500 } });
    children.push(serve(h, 'silent', ['silent']));
    await targetAttached(h, 'stdio-silent');
    const r = await call(h, 'stdio-silent', 1);
    expect(r.json()).toMatchObject({ id: 1, error: { code: -32000, message: expect.stringContaining('did not answer: no answer within 1.5 s') } });
  }, 60_000);

  it('gives the caller an error naming the size when the server answers with a line past what the relay takes', async () => {
    h = await startRelay();
    children.push(serve(h, 'huge', ['big-answer', '20']));
    await targetAttached(h, 'stdio-huge');
    const r = await call(h, 'stdio-huge', 7);
    expect(r.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: expect.stringMatching(/answer is \d+ bytes, more than the 16777216/) } });
  }, 60_000);

  it('starts the wrapped server without the relay token in its environment', async () => {
    expect(serverEnv({ PATH: '/bin', MRTR_RELAY_TOKEN: 't', MRTR_PAGE_SECRET: 's', MRTR_INSPECTOR_URL: 'u' })).toEqual({ PATH: '/bin', MRTR_INSPECTOR_URL: 'u' });
    const w = startNode(wrapArgv(['--name', 'env', '--capture', '/dev/null'], [process.execPath, HOSTILE, 'env']), { MRTR_RELAY_TOKEN: TOKEN });
    w.child.stdin.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x' }) + '\n');
    const run = await w.done;
    const env = JSON.parse(run.stdout.toString()).result.env as Record<string, string>;
    expect(env.MRTR_RELAY_TOKEN).toBeUndefined();
  }, 30_000);
});
