// wrap once sent the relay token and the stdio records to whatever listened on the
// inspector's port (a squatter on a port the inspector left), and a second wrap under a
// taken name took the name over silently. Now wrap reads the token from the inspector's
// 0600 info file and sends nothing until the listener proves it knows the key there.
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeInfoFile } from '../../../server/relay/info-file.js';
import { freshSecret } from '../../../server/relay/proof.js';
import { buildCliIfStale, ECHO_SERVER, feed, startNode, wrapArgv } from '../../support/wrap-process.js';
import { eventually, send, startRelay, type RelayHarness } from '../relay/relay-harness.js';

beforeAll(buildCliIfStale, 120_000);

const req = (id: unknown, method: string) => JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }) + '\n';

// A squatter: answers everything 200 with a made-up proof, and keeps what it was sent.
async function squatter() {
  const seen: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((r, res) => {
    let body = '';
    r.on('data', (d) => (body += d));
    r.on('end', () => {
      seen.push({ path: r.url ?? '', headers: r.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ proof: 'x'.repeat(43), accepted: 1 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, seen, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

describe("wrap's check of the inspector", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  it('sends a squatter on the port neither the token nor a record (tap mode files them; serve mode refuses to start)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-wrap-squat-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const s = await squatter();
    cleanup.push(s.close);
    // The info file of an inspector that ran on this port (its key is not the squatter's).
    const token = 'stale-relay-token-0123456789';
    writeInfoFile(dir, s.port, { url: `http://127.0.0.1:${s.port}`, pageUrl: `http://127.0.0.1:${s.port}/?token=x`, token, proofKey: freshSecret(), pid: 1 });
    const capture = join(dir, 'c.jsonl');
    const tap = startNode(wrapArgv(['--name', 'sq', '--inspector', `http://127.0.0.1:${s.port}`, '--capture', capture], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_DIR: dir });
    await feed(tap.child, [req(1, 'tools/list')]);
    const run = await tap.done;
    expect(run.code).toBe(0);
    expect(run.stderr.toString()).toMatch(/could not prove it is your inspector/);
    expect(await readFile(capture, 'utf8')).toContain('tools/list');
    const serve = startNode(['cli/bin.js', 'wrap', '--serve', '--name', 'sq', '--inspector', `http://127.0.0.1:${s.port}`, '--', process.execPath, ECHO_SERVER], { MRTR_RELAY_DIR: dir });
    serve.child.stdin.end();
    const served = await serve.done;
    expect(served.code).toBe(2);
    expect(served.stderr.toString()).toMatch(/could not prove it is your inspector/);
    // All the squatter ever got: proof questions, no token, no record.
    expect(s.seen.map((x) => x.path.split('?')[0])).toEqual(['/relay/proof', '/relay/proof']);
    expect(JSON.stringify(s.seen)).not.toContain(token);
    expect(JSON.stringify(s.seen)).not.toContain('tools/list');
  }, 60_000);

  it('warns that --token is ignored (a token in argv shows in ps) and finds the token in the info file instead', async () => {
    const h: RelayHarness = await startRelay();
    cleanup.push(() => h.close());
    const w = startNode(wrapArgv(['--name', 'tok', '--inspector', h.origin, '--token', 'in-argv-token-0123456789', '--capture', join(h.dir, 'unused.jsonl')], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_DIR: h.dir });
    await feed(w.child, [req(1, 'tools/list')]);
    const run = await w.done;
    expect(run.stderr.toString()).toMatch(/--token is ignored: a token on the command line shows in ps/);
    await eventually(async () => (await readFile(h.jsonl, 'utf8').catch(() => '')).includes('stdio://tok'));
  }, 60_000);

  it('refuses a second attach under a taken name, and that wrap says its name is taken', async () => {
    const h: RelayHarness = await startRelay();
    cleanup.push(() => h.close());
    const env = { MRTR_RELAY_DIR: h.dir };
    const first = startNode(['cli/bin.js', 'wrap', '--serve', '--name', 'fs', '--inspector', h.origin, '--', process.execPath, ECHO_SERVER], env);
    cleanup.push(async () => { first.child.kill('SIGTERM'); await first.done; });
    await eventually(async () => (await send(h.port, { path: '/relay/api/targets', headers: { origin: h.origin } })).json<{ stdio: { id: string }[] }>().stdio.length === 1, 20_000);
    const second = startNode(['cli/bin.js', 'wrap', '--serve', '--name', 'fs', '--inspector', h.origin, '--', process.execPath, ECHO_SERVER], env);
    const errs: Buffer[] = [];
    second.child.stderr.on('data', (d: Buffer) => errs.push(d));
    await eventually(() => Buffer.concat(errs).toString().includes('the name "fs" is taken'), 20_000);
    second.child.kill('SIGTERM');
    await second.done;
    // The first still holds the name: its echo server answers the call.
    const r = await send(h.port, { method: 'POST', path: '/relay/stdio/fs', headers: { origin: h.origin, 'content-type': 'application/json' }, body: req(7, 'ping') });
    expect(r.status).toBe(200);
    expect(r.json<{ id: number }>().id).toBe(7);
  }, 60_000);
});
