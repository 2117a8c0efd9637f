import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { decodeExchange } from '../../../worker/decode/exchange.js';
import { buildCliIfStale, ECHO_SERVER, feed, startNode, wrapArgv } from '../../support/wrap-process.js';
import { eventually, openPage, parseJsonl, send, startRelay, TOKEN, type RelayHarness } from '../relay/relay-harness.js';

beforeAll(buildCliIfStale, 120_000);

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const req = (id: unknown, method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';

// A client session with the awkward parts: a request split across writes, a CRLF line,
// non-ASCII text, a line that is not JSON, a server answer written in two halves, noise.
const SESSION: (string | Buffer)[] = [
  req(1, 'tools/list'),
  req(2, 'tools/call', { name: 'échø', arguments: { s: '😀 multi\u2028line' } }).slice(0, 20),
  req(2, 'tools/call', { name: 'échø', arguments: { s: '😀 multi\u2028line' } }).slice(20),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\r\n',
  'not json at all\n',
  req(3, 'test/split', { x: 1 }),
  req(4, 'test/noise'),
  Buffer.from(req(5, 'tools/call', { bytes: 'ÿ' })),
];

describe('mrtr-inspector wrap (tap mode)', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  let dir = '';
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  const tempDir = async () => {
    dir = await mkdtemp(join(tmpdir(), 'mrtr-wrap-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };

  it('gives the client the same bytes, stderr and exit status as the server run directly (sha-256 of stdout equal)', async () => {
    const d = await tempDir();
    const direct = startNode([ECHO_SERVER]);
    await feed(direct.child, SESSION);
    const plain = await direct.done;
    const wrapped = startNode(wrapArgv(['--name', 'echo', '--capture', join(d, 'c.jsonl')], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_TOKEN: '' });
    await feed(wrapped.child, SESSION);
    const through = await wrapped.done;
    expect(plain.stdout.length).toBeGreaterThan(300);
    expect(sha(through.stdout)).toBe(sha(plain.stdout));
    expect(through.stderr.toString()).toBe(plain.stderr.toString());
    expect(through.code).toBe(plain.code);
  });

  it('with no inspector, writes each request with its answer to the capture file as stdio:// exchanges, the non-JSON line as a decode problem', async () => {
    const d = await tempDir();
    const file = join(d, 'c.jsonl');
    const w = startNode(wrapArgv(['--name', 'echo', '--capture', file], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_TOKEN: '' });
    await feed(w.child, SESSION);
    expect((await w.done).code).toBe(0);
    const { header, records } = parseJsonl(await readFile(file, 'utf8'));
    expect(header).toMatchObject({ kind: 'mrtr-inspector-capture' });
    const bodies = records.map((r) => r.request.body);
    expect(bodies).toContain('not json at all');
    const calls = records.filter((r) => r.request.body?.includes('"id":'));
    expect(calls.map((r) => JSON.parse(r.request.body!).id)).toEqual([1, 2, 3, 4, 5]);
    for (const r of calls) {
      expect(r).toMatchObject({ state: 'complete', request: { url: 'stdio://echo' }, stdio: { name: 'echo' } });
      const answers = r.response!.events!.map((e) => e.data).filter((d) => d.startsWith('{'));
      expect(JSON.parse(answers[0]).id).toBe(JSON.parse(r.request.body!).id);
    }
    const bad = records.find((r) => r.request.body === 'not json at all')!;
    expect(decodeExchange(bad).problems[0]).toMatchObject({ part: 'request' });
    // The server's own non-JSON output (on the open request, or on its own record when two
    // were open) decodes as a problem of the server's side.
    const noisy = records.find((r) => r.response?.events?.some((e) => e.data === 'debug output that is not JSON'))!;
    expect(decodeExchange(noisy).problems.map((p) => p.part)).toEqual(['response']);
  });

  it('passes a crash through (exit code, stderr) and records it with the stderr tail', async () => {
    const d = await tempDir();
    const file = join(d, 'c.jsonl');
    const input = [req(1, 'tools/list'), req(2, 'tools/call'), JSON.stringify({ jsonrpc: '2.0', method: 'test/crash' }) + '\n'];
    const direct = startNode([ECHO_SERVER]);
    await feed(direct.child, input.slice(0, 1));
    const plain = await direct.done;
    const w = startNode(wrapArgv(['--name', 'crashy', '--capture', file], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_TOKEN: '' });
    // Request 2 is answered; the crash line kills the server before anything else.
    w.child.stdin.write(input[0]);
    w.child.stdin.write(input[2]);
    const through = await w.done;
    expect(through.code).toBe(3);
    expect(through.stderr.toString()).toBe('fatal: the test asked me to crash\n');
    expect(plain.code).toBe(0);
    const { records } = parseJsonl(await readFile(file, 'utf8'));
    const crash = records.find((r) => r.state === 'failed')!;
    expect(crash.stdio).toEqual({ name: 'crashy', exit: { code: 3, signal: null, stderrTail: 'fatal: the test asked me to crash\n' } });
    expect(crash.error).toMatch(/exited with code 3; its last stderr output: fatal/);
  });

  it('forwards SIGTERM to the server, ends the way it did, and records no crash for a shutdown its client asked for', async () => {
    const d = await tempDir();
    const w = startNode(wrapArgv(['--capture', join(d, 'c.jsonl')], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_TOKEN: '' });
    w.child.stdin.write(req(1, 'x'));
    await new Promise((r) => w.child.stdout.once('data', r));
    w.child.kill('SIGTERM');
    const run = await w.done;
    expect(run.signal).toBe('SIGTERM');
    // A client stopping its server is a shutdown: the capture holds the call, no crash.
    const { records } = parseJsonl(await readFile(join(d, 'c.jsonl'), 'utf8'));
    expect(records.map((r) => r.state)).toEqual(['complete']);
  });

  it('passes a 50 MB line through unchanged and records its first 4 MiB, marked truncated, paired with its cut answer', async () => {
    const d = await tempDir();
    const file = join(d, 'c.jsonl');
    const big = req(1, 'tools/call', { blob: 'x'.repeat(50 * 1024 * 1024) });
    const direct = startNode([ECHO_SERVER]);
    await feed(direct.child, [big]);
    const plain = await direct.done;
    const w = startNode(wrapArgv(['--capture', file], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_TOKEN: '' });
    await feed(w.child, [big]);
    const through = await w.done;
    expect(through.stdout.length).toBeGreaterThan(50 * 1024 * 1024);
    expect(sha(through.stdout)).toBe(sha(plain.stdout));
    const { records } = parseJsonl(await readFile(file, 'utf8'));
    expect(records[0].request.body!.length).toBe(4 * 1024 * 1024);
    expect(records[0].request.truncated).toEqual({ recordedBytes: 4 * 1024 * 1024, totalBytes: big.length - 1 });
    expect(records[0].state).toBe('complete');
    expect(records[0].response!.truncated).toEqual({ recordedBytes: 4 * 1024 * 1024, totalBytes: plain.stdout.length - 1 });
  }, 120_000);

  describe('with the inspector running', () => {
    let h: RelayHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('posts the exchanges to the relay, which pushes them live to an open page in its session', async () => {
      h = await startRelay();
      const page = await openPage(h);
      cleanup.push(async () => page.close());
      const w = startNode(wrapArgv(['--name', 'live', '--inspector', h.origin, '--capture', join(await tempDir(), 'unused.jsonl')], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_DIR: h.dir });
      w.child.stdin.write(req(1, 'tools/list'));
      // Live: the record arrives while the wrap (and its client) are still running. Read
      // pushes until the complete one, however long a loaded machine takes to start the wrap
      // (the test's own timeout is the only clock).
      let done: ExchangeRecord | undefined;
      while (!done) {
        const r = await page.next(90_000);
        if (r.state === 'complete') done = r;
      }
      expect(done).toMatchObject({ request: { url: 'stdio://live' }, stdio: { name: 'live' }, source: 'relay' });
      expect(done.session).toMatch(/^relay-/);
      w.child.stdin.end();
      expect((await w.done).code).toBe(0);
    }, 120_000);

    it('falls back to the capture file when the inspector goes away mid-session; the page drains every exchange later', async () => {
      const d = await tempDir();
      h = await startRelay({ dir: d, keepDir: true });
      const origin = h.origin;
      const w = startNode(wrapArgv(['--name', 'gone', '--inspector', origin, '--capture', h.jsonl], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_DIR: h.dir });
      w.child.stdin.write(req(1, 'tools/list'));
      await new Promise((r) => w.child.stdout.once('data', r));
      // The relay files the record once the wrap's batch lands: a condition, with room for a loaded machine.
      await eventually(async () => (await readFile(h!.jsonl, 'utf8').catch(() => '')).includes('"state":"complete"'), 60_000);
      await h.close();
      h = undefined;
      await feed(w.child, [req(2, 'a'), req(3, 'b')]);
      const run = await w.done;
      expect(run.code).toBe(0);
      expect(run.stderr.toString()).toMatch(/cannot be reached .* recording to .*capture\.jsonl instead/);
      h = await startRelay({ dir: d });
      const backlog = await send(h.port, { method: 'POST', path: '/relay/api/backlog', headers: { origin: h.origin } });
      const ids = parseJsonl(backlog.text).records.filter((r) => r.state === 'complete').map((r) => JSON.parse(r.request.body!).id);
      expect(ids.sort()).toEqual([1, 2, 3]);
    }, 120_000);

    it('refuses records without the relay token, and HTTP records without the stdio marker', async () => {
      h = await startRelay();
      const rec = { v: 1, id: 'x', seq: 0, source: 'relay', startedAt: 1, state: 'complete', request: { method: 'POST', url: 'stdio://x', headers: [] } };
      const noToken = await send(h.port, { method: 'POST', path: '/relay/ingest', body: JSON.stringify([{ ...rec, stdio: { name: 'x' } }]) });
      expect(noToken.status).toBe(403);
      const http = await send(h.port, { method: 'POST', path: '/relay/ingest', headers: { 'x-mrtr-relay-token': TOKEN }, body: JSON.stringify([rec]) });
      expect(http.status).toBe(400);
      const ok = await send(h.port, { method: 'POST', path: '/relay/ingest', headers: { 'x-mrtr-relay-token': TOKEN }, body: JSON.stringify([{ ...rec, stdio: { name: 'x' } }]) });
      expect(ok.json()).toEqual({ accepted: 1 });
    });
  });
});
