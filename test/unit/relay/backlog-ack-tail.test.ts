// An acknowledgement rewrites the capture file without reading what comes after the drain
// it acknowledges (server/relay/capture-file.ts, `remove` with `through`): lines before the
// drain's end are read for their ids only, the rest is copied as bytes. Checked here against
// the rewrite that reads and parses every line, on the same operations: the same file, the
// same counts, the same next drains.
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { Backlog } from '../../../server/relay/backlog.js';
import { CaptureFile, type FileCursor } from '../../../server/relay/capture-file.js';
import { backlogRecord as rec, parseJsonl } from './relay-harness.js';

// The rewrite that reads every line: `through` is never passed on.
class ReadingFile extends CaptureFile {
  override remove(handed: ReadonlyMap<string, ExchangeRecord>, acked: ReadonlySet<string>, _through?: FileCursor) {
    return super.remove(handed, acked);
  }
}

// A small deterministic generator (mulberry32), so a failure can be run again.
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The file without its header's time (each rewrite writes a header of its own).
const body = async (path: string) => (await readFile(path, 'utf8').catch(() => '')).replace(/"createdAt":"[^"]*"/, '"createdAt":"…"');

describe('the acknowledgement that copies what follows its drain as bytes', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });
  async function paths(start?: string): Promise<[string, string]> {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-ack-tail-'));
    dirs.push(dir);
    const out: [string, string] = [join(dir, 'quick.jsonl'), join(dir, 'reading.jsonl')];
    if (start !== undefined) for (const p of out) await writeFile(p, start, { mode: 0o600 });
    return out;
  }

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`gives what the reading rewrite gives over overlapping drains, partial and skipped acknowledgements, and appends between them (seed ${seed})`, async () => {
      const next = random(seed);
      // Seeds 4–6 start over a file an earlier run left (its lines are not known until read).
      const earlier = seed > 3 ? `${JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: 'x' })}\n${[0, 1, 2].map((i) => JSON.stringify(rec(1000 + i, 'complete'))).join('\n')}\n` : undefined;
      const [qp, rp] = await paths(earlier);
      const opts = { batchBytes: 1200 + Math.floor(next() * 2000), pieceBytes: 97 };
      const quick = new CaptureFile(qp, () => undefined, opts);
      const reading = new ReadingFile(rp, () => undefined, opts);
      const sides = [{ file: quick, backlog: new Backlog(quick) }, { file: reading, backlog: new Backlog(reading) }];
      let made = 0;
      const open: number[] = []; // ids filed as pending, to be completed later
      const append = async () => {
        if (open.length > 0 && next() < 0.4) {
          const i = open.splice(Math.floor(next() * open.length), 1)[0]!;
          for (const s of sides) await s.file.append(rec(i, 'complete'));
          return;
        }
        const i = made++;
        const state = next() < 0.5 ? 'pending' : 'complete';
        if (state === 'pending') open.push(i);
        for (const s of sides) await s.file.append(rec(i, state));
      };
      for (let k = 0; k < 40; k++) await append();
      let previous: { drain: string[]; ids: string[] } | null = null;
      let acks = 0;
      for (let step = 0; step < 60; step++) {
        const got = await Promise.all(sides.map((s, i) => s.backlog.handOut(undefined, previous?.drain[i])));
        expect(got[0]!.content.replace(/"createdAt":"[^"]*"/, '')).toBe(got[1]!.content.replace(/"createdAt":"[^"]*"/, ''));
        for (let k = Math.floor(next() * 4); k > 0; k--) await append();
        if (previous && next() < 0.85) {
          // Some of its ids, and now and then one it did not hand out.
          const ids = previous.ids.filter(() => next() < 0.9);
          if (next() < 0.2) ids.push(`ex-${Math.floor(next() * made)}`);
          const outcomes = await Promise.all(sides.map((s, i) => s.backlog.ack({ drain: previous!.drain[i]!, ids })));
          expect(outcomes[0]).toEqual(outcomes[1]);
          expect(await body(qp)).toBe(await body(rp));
          acks++;
        }
        const records = parseJsonl(got[0]!.content).records;
        previous = { drain: got.map((g) => g.drain), ids: [...new Set(records.map((r) => r.id))] };
        // Now and then start again from the file's start, as a page opened anew does.
        if (!got[0]!.more || next() < 0.1) previous = null;
      }
      expect(acks).toBeGreaterThan(10);
      expect(made).toBeGreaterThan(60);
    });
  }

  it('parses no record line when the file\'s lines are this relay\'s own, and reads it all after another writer appended', async () => {
    const [qp] = await paths();
    const file = new CaptureFile(qp, () => undefined, { batchBytes: 2000, pieceBytes: 128 });
    const backlog = new Backlog(file);
    for (let i = 0; i < 30; i++) await file.append(rec(i, 'complete'));
    const first = await backlog.handOut();
    await (await backlog.handOut(undefined, first.drain)).drain; // a second drain out: lines after the first's end
    const ids = parseJsonl(first.content).records.map((r) => r.id);
    const parse = vi.spyOn(JSON, 'parse');
    expect(await backlog.ack({ drain: first.drain, ids })).toEqual({ ok: true, removed: ids.length, left: 30 - ids.length });
    // The header alone (it has no record id to find).
    expect(parse.mock.calls.map(([text]) => JSON.parse(String(text)).kind)).toEqual(['mrtr-inspector-capture']);
    parse.mockRestore();
    // Another writer (`wrap`) appends a record of its own: its id is not known here, so the
    // next acknowledgement reads the file whole and counts it.
    await appendFile(qp, JSON.stringify(rec(99, 'complete')) + '\n');
    const again = await backlog.handOut();
    const againIds = parseJsonl(again.content).records.map((r) => r.id);
    const spy = vi.spyOn(JSON, 'parse');
    const outcome = await backlog.ack({ drain: again.drain, ids: againIds });
    expect(spy.mock.calls.length).toBeGreaterThan(againIds.length);
    spy.mockRestore();
    expect(outcome).toEqual({ ok: true, removed: againIds.length, left: 30 - ids.length - againIds.length + 1 });
    expect(parseJsonl(await readFile(qp, 'utf8')).records.map((r) => r.id)).toContain('ex-99');
  });

  it('keeps the lines of ids the acknowledged drain did not hand out, before it and after it, and those filed after it', async () => {
    const [qp] = await paths();
    const file = new CaptureFile(qp, () => undefined, { batchBytes: 1000, pieceBytes: 64 });
    const backlog = new Backlog(file);
    for (let i = 0; i < 16; i++) await file.append(rec(i, i === 3 ? 'pending' : 'complete'));
    const first = await backlog.handOut();
    const second = await backlog.handOut(undefined, first.drain);
    const firstIds = parseJsonl(first.content).records.map((r) => r.id);
    const ids = parseJsonl(second.content).records.map((r) => r.id);
    expect(second.more).toBe(true);
    expect(firstIds).toContain('ex-1');
    expect(ids).toContain('ex-3');
    await file.append(rec(3, 'complete')); // ex-3 ends after the hand-out
    // The first drain is not acknowledged; the page names ex-1 (the first drain's) and ex-15
    // (after this drain) with the second's.
    expect(await backlog.ack({ drain: second.drain, ids: [...ids, 'ex-1', 'ex-15'] })).toEqual({ ok: true, removed: ids.length - 1, left: 16 - ids.length + 1 });
    const left = parseJsonl(await readFile(qp, 'utf8')).records;
    expect(left.map((r) => r.id)).toEqual([...firstIds, 'ex-3', ...Array.from({ length: 16 - firstIds.length - ids.length }, (_, k) => `ex-${firstIds.length + ids.length + k}`)]);
    expect(left.find((r) => r.id === 'ex-3')?.state).toBe('complete');
  });
});
