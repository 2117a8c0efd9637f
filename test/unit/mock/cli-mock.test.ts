// `mrtr-inspector mock` as a user runs it: the built CLI as a child process, over HTTP (to
// SIGTERM, with the summary and --report) and over stdio with the official SDK v2 client,
// against a capture the wrap recorded of the same client and the stdio demo.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { importCapture } from '../../../worker/capture/index.js';
import { buildCliIfStale } from '../../support/wrap-process.js';
import { runCli } from '../../support/cli-process.js';
import { demoFlows } from '../../support/mock-flows.js';
import { eventually } from '../relay/relay-harness.js';

beforeAll(buildCliIfStale, 120_000);

const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mrtr-mock-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Starts `mock` over HTTP; resolves with the child, its URL and its stderr so far. */
async function startMock(...args: string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, ['cli/bin.js', 'mock', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  let out = '';
  for await (const chunk of child.stdout!) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)?.[1];
  if (!url) throw new Error(`mock printed no URL: ${out}${err}`);
  return { child, url, stderr: () => err };
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.text()) };
};

describe('mrtr-inspector mock (the built CLI)', () => {
  it('serves a HAR over HTTP, answers a mismatch with the named error, and at SIGTERM logs the summary, writes a JUnit report and exits 1', async () => {
    const dir = await tempDir();
    const report = join(dir, 'mock.xml');
    const { child, url, stderr } = await startMock('test/fixtures/sdk/sdk-v2-manual.har', '--timing', 'fast', '--report', report);
    const first = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'setup_wizard', arguments: {} } });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toMatchObject({ id: 1, result: { resultType: 'input_required', requestState: expect.stringMatching(/^mock\./) } });
    const wrong = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'setup_wizard', arguments: { size: 3 } } });
    expect(JSON.parse(wrong.body)).toMatchObject({ id: 2, error: { code: -32099, message: expect.stringContaining('/params/arguments/size: not in the recording, sent 3') } });
    expect((await fetch(url)).status).toBe(405);
    expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr()).toContain('mismatch: no recorded tools/call has these params. Closest recorded request: tools/call setup_wizard');
    expect(stderr()).toMatch(/1 request\(s\) answered; recorded calls: 0 used, 1 partly used, 4 unused \(of 5\); 1 mismatch\(es\)/);
    const xml = await readFile(report, 'utf8');
    expect(xml).toContain('<testsuites name="mrtr-inspector mock" tests="2" failures="1">');
  }, 60_000);

  it('over stdio, gives the SDK v2 client the same results from a capture the wrap recorded of it and the stdio demo, and at the end of input writes a clean JSON report', async () => {
    const dir = await tempDir();
    const capture = join(dir, 'demo.jsonl');
    const wrapped = () => new StdioClientTransport({
      command: process.execPath,
      // An inspector address where none listens, and a relay folder of the test's own: the
      // records go to the capture file, never to an inspector someone else runs.
      args: ['cli/bin.js', 'wrap', '--name', 'demo', '--capture', capture, '--inspector', 'http://127.0.0.1:9', '--', process.execPath, TSX, 'test/peers/stdio/demo-stdio-server.ts'],
      env: { PATH: process.env.PATH ?? '', MRTR_RELAY_TOKEN: '', MRTR_RELAY_DIR: dir }, stderr: 'pipe',
    });
    const results = await demoFlows(wrapped, { progress: false });
    await eventually(async () => {
      const got = importCapture(await readFile(capture, 'utf8').catch(() => ''));
      return got.ok && got.exchanges.some((r) => r.request.body?.includes('demo://secret-note') && r.state === 'complete');
    }, 15_000);

    const report = join(dir, 'mock.json');
    let mockStderr = '';
    const mocked = () => {
      // Recorded timing: the answers come as late as the server's did, the stream's lines too.
      const t = new StdioClientTransport({ command: process.execPath, args: ['cli/bin.js', 'mock', '--stdio', '--report', report, capture], stderr: 'pipe' });
      t.stderr?.on('data', (d) => (mockStderr += d));
      return t;
    };
    expect(await demoFlows(mocked, { progress: false })).toEqual(results);
    // The client probes server/discover on a process of its own, then starts another for the
    // session: the session's mock writes the report when its input ends, after the probe's.
    type Summary = { answered: number; mismatches: string[]; warnings: string[]; unused: string[]; used: number; calls: number };
    const read = async () => JSON.parse((await readFile(report, 'utf8').catch(() => '')) || '{"answered":0}') as Summary;
    await eventually(async () => (await read()).answered > 1, 15_000);
    const summary = await read();
    expect(summary.mismatches).toEqual([]);
    expect(summary.warnings).toEqual([]);
    expect(summary.unused).toEqual(['server/discover (c0)']);
    expect(summary.used).toBe(summary.calls - 1);
    expect(mockStderr).not.toContain('mismatch:');
  }, 120_000);

  it('says why a capture cannot be served and exits 2', async () => {
    const dir = await tempDir();
    const empty = join(dir, 'empty.har');
    await import('node:fs/promises').then((fs) => fs.writeFile(empty, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [] } })));
    const run = await runCli('mock', empty);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/nothing to serve|no exchanges|empty/i);
    const missing = await runCli('mock', join(dir, 'nope.har'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  }, 30_000);
});
