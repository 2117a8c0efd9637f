// Reading a capture for the CLI: any size is read in bounded pieces, a line past the limit
// is skipped with a message, and input the reader cannot take is a message (exit 2), never
// a crash. Small limits here; the real defaults in cli-big-input.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readCapture } from '../../../cli/capture-input.js';
import { exportHar, exportJsonl, jsonlLine } from '../../../worker/capture/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { sampleRecords } from '../capture/sample-records.js';

const dir = mkdtempSync(join(tmpdir(), 'mrtr-read-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const LIMITS = { maxLineChars: 4000, wholeReadBytes: 20_000 };
const recs = sampleRecords();

describe('readCapture', () => {
  it('skips a JSONL line past the limit with a message naming it, and imports the rest with --allow-partial', async () => {
    const path = file('long.jsonl', exportJsonl(recs.slice(0, 1), { createdAt: 'x' }) + '{"id":"' + 'x'.repeat(9000) + '"}\n' + jsonlLine(recs[1]));
    const strict = await readCapture(path, false, undefined, LIMITS);
    expect(strict.ok).toBe(false);
    if (!strict.ok) expect(strict.message).toMatch(/1 of 3 lines could not be read; the first: line 3: the line is 9009 characters long, more than the 4000 characters one record may take; it was skipped unread\..*Pass --allow-partial/);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const seen: string[] = [];
    const partial = await readCapture(path, true, (r) => seen.push(r.id), LIMITS);
    const said = stderr.mock.calls.map((c) => String(c[0]));
    stderr.mockRestore();
    expect(partial.ok && partial.exchanges.map((r) => r.id)).toEqual([recs[0].id, recs[1].id]);
    expect(seen).toEqual([recs[0].id, recs[1].id]);
    expect(said[0]).toMatch(/^mrtr-inspector: skipped line 3: the line is 9009 characters long/);
  });

  it('streams JSONL bigger than the whole-read limit, handing each record on as it is read (a later line for an id replaces it)', async () => {
    const many: ExchangeRecord[] = [];
    for (let i = 0; i < 200; i++) many.push({ ...recs[0], id: `r${i}`, seq: i });
    const again = { ...recs[0], id: 'r5', state: 'failed' as const };
    const text = exportJsonl(many, { createdAt: 'x' }) + jsonlLine(again);
    expect(text.length).toBeGreaterThan(LIMITS.wholeReadBytes * 5);
    const seen = new Map<number, ExchangeRecord>();
    const got = await readCapture(file('many.jsonl', text), false, (r, i) => seen.set(i, r), LIMITS);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.exchanges).toHaveLength(200);
    expect(got.exchanges[5].state).toBe('failed');
    expect([...seen.keys()].sort((a, b) => a - b)).toEqual([...Array(200).keys()]);
    expect(seen.get(5)!.state).toBe('failed');
  });

  it('refuses, with what and why, a damaged HAR too big to read whole', async () => {
    const har = exportHar(recs);
    const big = har.replace('"entries": [', `"padding": "${'p'.repeat(LIMITS.wholeReadBytes)}", "entries": [`).slice(0, -20);
    const got = await readCapture(file('damaged.har', big), false, undefined, LIMITS);
    expect(got).toEqual({ ok: false, message: expect.stringMatching(/damaged\.har: the file is 0\.0\d\d MiB and is not a plain HAR or JSONL capture that can be read piece by piece.*files over 0\.019 MiB are not read whole/) });
  });

  it('refuses a HAR whose one entry is past the limit when the file is too big to read whole', async () => {
    const huge = { ...recs[0], request: { ...recs[0].request, body: 'b'.repeat(30_000) } };
    const got = await readCapture(file('huge-entry.har', exportHar([huge])), false, undefined, LIMITS);
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.message).toMatch(/an entry larger than 0\.004 MiB/);
  });

  it('still reads a plain HAR in pieces, and a small damaged one whole for its precise error', async () => {
    const har = exportHar(recs);
    const ok = await readCapture(file('ok.har', har), false, undefined, LIMITS);
    expect(ok.ok && ok.exchanges).toHaveLength(recs.length);
    const cut = await readCapture(file('cut.har', har.slice(0, har.length - 30)), false, undefined, LIMITS);
    expect(cut.ok).toBe(false);
    if (!cut.ok) expect(cut.message).toMatch(/could not be read|not valid JSON|cut off/);
  });
});
