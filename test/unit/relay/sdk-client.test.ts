import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { openPage, parseJsonl, send, startRelay, type RelayHarness } from './relay-harness.js';

const PEER = fileURLToPath(new URL('../../peers/relay-client.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));

// Runs the official SDK v2 client as its own Node process against `url`; kills it on timeout.
function runClient(url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, PEER, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const bodyOf = (r: ExchangeRecord) => JSON.parse(r.request.body ?? '{}') as { method?: string; params?: { inputResponses?: Record<string, unknown>; requestState?: string } };

// What the whole session must look like: discover, then four rounds of one tools/call.
function expectWizardSession(records: ExchangeRecord[]): void {
  expect(records.map((r) => bodyOf(r).method)).toEqual(['server/discover', 'tools/call', 'tools/call', 'tools/call', 'tools/call']);
  expect(records.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4]);
  for (const r of records) {
    expect(r).toMatchObject({ source: 'relay', state: 'complete', response: { status: 200 } });
    expect(r.request.url).toMatch(/\/demo\/mcp$/);
    expect(r.request.headers.length).toBeGreaterThan(0);
  }
  const rounds = records.slice(1);
  expect(rounds.map((r) => Object.keys(bodyOf(r).params?.inputResponses ?? {}))).toEqual([[], ['name'], ['plan'], ['confirm']]);
  // Every retry echoes the state the previous round issued.
  for (const r of rounds.slice(1)) expect(bodyOf(r).params?.requestState).toMatch(/^v1\./);
  expect(new Set(records.map((r) => r.client)).size).toBeGreaterThan(0);
}

describe('an external SDK v2 client through the relay', () => {
  let h: RelayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('completes a three-round tool call; with no page open every exchange lands in the JSONL file, and backlog hands it over until the page acknowledges it', async () => {
    h = await startRelay();
    const run = await runClient(h.relayUrl('demo'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ ok: true, text: 'Created workspace "Relay Labs" on the team plan.', asked: ['name', 'plan', 'confirm'] });

    await h.relay.close(); // flushes queued writes
    const onDisk = parseJsonl(await readFile(h.jsonl, 'utf8'));
    expect(onDisk.header).toMatchObject({ kind: 'mrtr-inspector-capture', version: 1 });
    expectWizardSession(onDisk.records);

    const backlog = await send(h.port, { method: 'POST', path: '/relay/api/backlog', headers: { origin: h.origin } });
    expect(backlog.status).toBe(200);
    const { records } = parseJsonl(backlog.text);
    expectWizardSession(records);
    // Lines leave the file once the page acknowledges it stored them; then a second drain
    // finds nothing.
    const ack = await send(h.port, {
      method: 'POST', path: '/relay/api/backlog/ack', headers: { origin: h.origin },
      body: JSON.stringify({ drain: backlog.headers['mrtr-drain'], ids: records.map((r) => r.id) }),
    });
    expect(ack.json()).toEqual({ removed: records.length, left: 0 });
    expect((await send(h.port, { method: 'POST', path: '/relay/api/backlog', headers: { origin: h.origin } })).text).toBe('');
    expect((await stat(h.jsonl)).size).toBe(0);
  });

  it('with a page open, pushes the same session over /relay/api/events as it happens and files nothing', async () => {
    h = await startRelay();
    const page = await openPage(h);
    try {
      const run = await runClient(h.relayUrl('demo'));
      expect(run.code).toBe(0);
      const latest = new Map<string, ExchangeRecord>();
      while (page.pending() > 0 || [...latest.values()].filter((r) => r.state === 'complete').length < 5) {
        const rec = await page.next();
        latest.set(rec.id, rec);
      }
      expectWizardSession([...latest.values()].sort((a, b) => a.seq - b.seq));
    } finally {
      page.close();
    }
    await h.relay.close();
    await expect(readFile(h.jsonl, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
