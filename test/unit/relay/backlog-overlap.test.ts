// Drains that overlap (server/relay/backlog.ts): a page asks for the next batch
// (`?after=<drain>`) while it still stores the one before, and acknowledges each on its
// own. The next batch starts where the named one ended, also after an acknowledgement
// rewrote the file under it; nothing leaves the file before it is acknowledged, and what
// is never acknowledged comes again on a drain from the start.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Backlog } from '../../../server/relay/backlog.js';
import { CaptureFile } from '../../../server/relay/capture-file.js';
import { backlogRecord as rec, eventually, parseJsonl, putTargets, send, startRelay, startUpstream, TOKEN } from './relay-harness.js';

const BATCH = 4096;
const PIECE = 256;

describe('overlapping backlog drains', () => {
  const dirs: string[] = [];
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it('hands each line once when every drain is asked for before the one before it is acknowledged, and ends empty', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-overlap-'));
    dirs.push(dir);
    const path = join(dir, 'c.jsonl');
    const file = new CaptureFile(path, () => undefined, { batchBytes: BATCH, pieceBytes: PIECE });
    const backlog = new Backlog(file);
    const N = 120;
    for (let i = 0; i < N; i++) {
      await file.append(rec(i, 'pending'));
      await file.append(rec(i, 'complete'));
    }
    const handed: string[] = [];
    let previous: { drain: string; ids: string[] } | null = null;
    let drains = 0;
    for (;;) {
      const got = await backlog.handOut(undefined, previous?.drain);
      drains++;
      const { records } = parseJsonl(got.content);
      handed.push(...records.map((r) => r.id));
      // The drain before is acknowledged only now, after this one was handed out: the file
      // is rewritten under this drain's end, which must stay on its line.
      if (previous) expect(await backlog.ack(previous)).toMatchObject({ ok: true });
      if (drains === 4) await file.append(rec(N, 'complete')); // filed meanwhile: comes later
      previous = { drain: got.drain, ids: [...new Set(records.map((r) => r.id))] };
      if (!got.more) break;
      expect(drains).toBeLessThan(1000);
    }
    expect(await backlog.ack(previous!)).toMatchObject({ ok: true, left: 0 });
    expect(drains).toBeGreaterThan(10);
    // Every id handed, no line twice: an id's pending line may end one batch and its
    // complete line start the next, so an id comes at most twice, once per line.
    const counts = new Map<string, number>();
    for (const id of handed) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect(counts.size).toBe(N + 1);
    expect([...counts.values()].every((c) => c <= 2)).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('keeps a drain that is never acknowledged, and hands it again from the start, while later drains go on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-overlap-'));
    dirs.push(dir);
    const file = new CaptureFile(join(dir, 'c.jsonl'), () => undefined, { batchBytes: BATCH, pieceBytes: PIECE });
    const backlog = new Backlog(file);
    for (let i = 0; i < 60; i++) await file.append(rec(i, 'complete'));
    const first = await backlog.handOut();
    const second = await backlog.handOut(undefined, first.drain);
    const ids = (c: string) => parseJsonl(c).records.map((r) => r.id);
    expect(ids(second.content).some((id) => ids(first.content).includes(id))).toBe(false);
    // The first one's storage failed (no ack); the second is stored and acknowledged.
    expect(await backlog.ack({ drain: second.drain, ids: ids(second.content) })).toMatchObject({ ok: true });
    const again = await backlog.handOut();
    expect(ids(again.content).slice(0, ids(first.content).length)).toEqual(ids(first.content));
    expect(ids(again.content).some((id) => ids(second.content).includes(id))).toBe(false);
  });

  it('serves ?after= over HTTP: a page reading the next batch before acknowledging the last gets every record once', async () => {
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
    const seen: string[] = [];
    let previous: { drain: string; ids: string[] } | null = null;
    const ack = (a: { drain: string; ids: string[] }) => send(h.port, {
      method: 'POST', path: '/relay/api/backlog/ack', headers: { origin: h.origin, 'content-type': 'application/json' }, body: JSON.stringify(a),
    });
    for (let drains = 0; drains < 200; drains++) {
      const path = '/relay/api/backlog' + (previous ? `?after=${previous.drain}` : '');
      const b = await send(h.port, { method: 'POST', path, headers: { origin: h.origin } });
      const records = parseJsonl(b.text).records;
      seen.push(...records.filter((r) => r.state === 'complete').map((r) => r.id));
      if (previous) expect((await ack(previous)).status).toBe(200);
      previous = { drain: String(b.headers['mrtr-drain']), ids: records.map((r) => r.id) };
      if (b.headers['mrtr-backlog-more'] !== '1') break;
    }
    expect((await ack(previous!)).status).toBe(200);
    expect(new Set(seen).size).toBe(n);
    expect(seen).toHaveLength(n);
    expect(parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records).toEqual([]);
  });
});
