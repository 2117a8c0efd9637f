// A big backlog is read and drained in pieces (server/relay/capture-file.ts): each drain
// hands out a bounded batch (the page drains again while `mrtr-backlog-more` says 1), and
// removal rewrites the file line by line, so no step holds the whole file as one string
// (a 600 MB file would hit `RangeError: Invalid string length` and stick new captures).
// Simulated with a small batch and piece size instead of a huge file.
import { lstat, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { Backlog } from '../../../server/relay/backlog.js';
import { CaptureFile } from '../../../server/relay/capture-file.js';
import { backlogRecord as rec, eventually, parseJsonl, putTargets, send, startRelay, startUpstream, TOKEN } from './relay-harness.js';

const BATCH = 4096;
const PIECE = 256;

describe('the relay backlog, drained in bounded batches', () => {
  const dirs: string[] = [];
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });
  async function tempDir() {
    const d = await mkdtemp(join(tmpdir(), 'mrtr-batches-'));
    dirs.push(d);
    return d;
  }

  it('hands a file many times the batch size out in batches within the bound, every line exactly once, and ends empty', async () => {
    const path = join(await tempDir(), 'c.jsonl');
    const file = new CaptureFile(path, () => undefined, { batchBytes: BATCH, pieceBytes: PIECE });
    const backlog = new Backlog(file);
    const N = 150;
    let appended = 0;
    // Every exchange filed twice (started, then finished): the later line replaces the earlier.
    for (let i = 0; i < N; i++) {
      await file.append(rec(i, 'pending'));
      await file.append(rec(i, 'complete'));
      appended += 2;
    }
    const size = (await stat(path)).size;
    expect(size).toBeGreaterThan(20 * BATCH);

    const stored = new Map<string, ExchangeRecord>();
    let handedLines = 0;
    let drains = 0;
    for (;;) {
      const { drain, content, more } = await backlog.handOut();
      drains++;
      expect(Buffer.byteLength(content)).toBeLessThanOrEqual(BATCH);
      const { records } = parseJsonl(content);
      handedLines += content.split('\n').filter((l) => l.startsWith('{"v":')).length;
      for (const r of records) stored.set(r.id, r);
      // The relay goes on filing while a page drains: those lines come in a later batch.
      if (drains === 3) {
        await file.append(rec(N, 'pending'));
        await file.append(rec(N, 'complete'));
        appended += 2;
      }
      const out = await backlog.ack({ drain, ids: [...new Set(records.map((r) => r.id))] });
      expect(out.ok).toBe(true);
      if (!more) break;
      expect(drains).toBeLessThan(1000);
    }
    expect(drains).toBeGreaterThan(10);
    expect(handedLines).toBe(appended); // nothing lost, nothing handed twice
    expect(stored.size).toBe(N + 1);
    for (const r of stored.values()) expect(r.state).toBe('complete');
    expect(await readFile(path, 'utf8')).toBe('');
    const again = await backlog.handOut();
    expect(again).toMatchObject({ content: '', more: false });
  });

  it('keeps what is not acknowledged, rewrites the file privately (0600, header first), and refuses a symlink', async () => {
    const dir = await tempDir();
    const path = join(dir, 'c.jsonl');
    const file = new CaptureFile(path, () => undefined, { batchBytes: BATCH, pieceBytes: PIECE });
    const backlog = new Backlog(file);
    for (let i = 0; i < 60; i++) await file.append(rec(i, 'complete'));
    const first = await backlog.handOut();
    const ids = parseJsonl(first.content).records.map((r) => r.id);
    expect(first.more).toBe(true);
    // Acknowledge all but the first of the batch: it stays, first in line.
    expect(await backlog.ack({ drain: first.drain, ids: ids.slice(1) })).toMatchObject({ ok: true, removed: ids.length - 1, left: 60 - ids.length + 1 });
    const text = await readFile(path, 'utf8');
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ kind: 'mrtr-inspector-capture' });
    expect(parseJsonl(text).records.map((r) => r.id)[0]).toBe(ids[0]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await lstat(path)).isSymbolicLink()).toBe(false);

    const elsewhere = join(dir, 'elsewhere.jsonl');
    await writeFile(elsewhere, JSON.stringify(rec(1, 'complete')) + '\n');
    const linked = join(dir, 'linked.jsonl');
    await symlink(elsewhere, linked);
    await expect(new CaptureFile(linked, () => undefined).read()).rejects.toThrow();
  });

  it('says over HTTP when a drain left lines out, and the page drains until it does not', async () => {
    const upstream = await startUpstream((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    });
    const h = await startRelay({ backlogBatchBytes: 2048 });
    started.push(upstream, h);
    await putTargets(h, [{ id: 'local', url: upstream.url }]);
    const n = 12;
    for (let i = 0; i < n; i++) await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/local`, body: `{"n":${i}}` });
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records.filter((r) => r.state === 'complete').length === n);
    const seen = new Map<string, string>();
    let drains = 0;
    for (;;) {
      const b = await send(h.port, { method: 'POST', path: '/relay/api/backlog', headers: { origin: h.origin } });
      drains++;
      expect(b.text.length).toBeLessThanOrEqual(4096);
      // Written as it is read (backlog-stream.test.ts): no length is known up front.
      expect(b.headers['content-length']).toBeUndefined();
      const records = parseJsonl(b.text).records;
      for (const r of records) seen.set(r.id, r.state);
      const ack = await send(h.port, {
        method: 'POST', path: '/relay/api/backlog/ack', headers: { origin: h.origin, 'content-type': 'application/json' },
        body: JSON.stringify({ drain: b.headers['mrtr-drain'], ids: records.map((r) => r.id) }),
      });
      expect(ack.status).toBe(200);
      if (b.headers['mrtr-backlog-more'] !== '1') break;
      expect(drains).toBeLessThan(200);
    }
    expect(drains).toBeGreaterThan(1);
    expect(seen.size).toBe(n);
    expect([...seen.values()].every((s) => s === 'complete')).toBe(true);
  });
});
