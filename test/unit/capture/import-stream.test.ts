import { describe, expect, it } from 'vitest';
import { exportJsonl, importCapture, jsonlLine, readJsonl } from '../../../worker/capture/index.js';
import { importCaptureStream } from '../../../worker/capture/import-stream.js';
import { JsonlStream } from '../../../worker/capture/jsonl.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { fixture } from './load-fixture.js';
import { sampleRecords } from './sample-records.js';
import { readFileSync } from 'node:fs';

async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** Streams `text` in pieces of `size`; returns the end and the records in batch order. */
async function stream(text: string, size: number, opts: Parameters<typeof importCaptureStream>[1] = {}) {
  const batches: ExchangeRecord[][] = [];
  const end = await importCaptureStream(pieces(text, size), { batchSize: 3, ...opts }, async (b) => void batches.push(b.map((r) => structuredClone(r))));
  return { end, batches, records: batches.flat() };
}

// Last copy per id wins, in first-appearance order: what a store holding the batches has.
function stored(records: ExchangeRecord[]): ExchangeRecord[] {
  const byId = new Map<string, ExchangeRecord>();
  for (const r of records) byId.set(r.id, r);
  return [...byId.values()];
}

const SDK = readFileSync(new URL('../../fixtures/sdk/sdk-v2-manual.har', import.meta.url), 'utf8');

describe('importing a capture as it is read', () => {
  for (const [name, text] of [['chrome HAR', fixture('chrome.har')], ['SDK HAR', SDK], ['minified HAR', JSON.stringify(JSON.parse(SDK))]] as const) {
    it(`reads a ${name} in pieces of any size to the records importCapture reads whole, in batches`, async () => {
      const whole = importCapture(text, { idPrefix: 'p' });
      expect(whole.ok).toBe(true);
      if (!whole.ok) return;
      for (const size of [1, 7, 100, 4096, text.length]) {
        const { end, batches, records } = await stream(text, size, { idPrefix: 'p' });
        expect(end.kind, `size ${size}`).toBe('done');
        expect(records, `size ${size}`).toEqual(whole.exchanges);
        // Handed on in batches as read (a piece holding many entries hands them on at once).
        if (size <= 100 && whole.exchanges.length > 3 && name !== 'minified HAR') expect(batches.length, `size ${size}`).toBeGreaterThan(1);
      }
    });
  }

  it('reads our JSONL in pieces, a later line for an id replacing the earlier with its first seq', async () => {
    const recs = sampleRecords();
    const updated = { ...recs[0], state: 'aborted' as const, error: 'cut' };
    const text = exportJsonl(recs, { createdAt: '2026-01-01T00:00:00Z' }) + jsonlLine(updated);
    const whole = importCapture(text);
    expect(whole.ok).toBe(true);
    if (!whole.ok) return;
    for (const size of [1, 5, 64, text.length]) {
      const { end, records } = await stream(text, size);
      expect(end.kind).toBe('done');
      expect(stored(records)).toEqual(whole.exchanges);
      expect(stored(records)[0]).toMatchObject({ seq: 0, state: 'aborted' });
    }
  });

  it('declines a damaged file (so the host reads it whole, for the precise error and the question)', async () => {
    const cut = SDK.slice(0, Math.floor(SDK.length * 0.6));
    expect((await stream(cut, 512)).end.kind).toBe('declined');
    expect((await stream('not a capture', 4)).end.kind).toBe('declined');
    expect((await stream('', 4)).end.kind).toBe('declined');
  });

  it('says once which reader the start of the file chose, and for JSONL declines afterwards only a file with no record', async () => {
    const told = async (text: string) => {
      const formats: string[] = [];
      const { end } = await stream(text, 5, { chosen: (f) => void formats.push(f) });
      return { formats, end: end.kind };
    };
    expect(await told(exportJsonl(sampleRecords()))).toEqual({ formats: ['jsonl'], end: 'done' });
    expect(await told(SDK)).toEqual({ formats: ['har'], end: 'done' });
    expect(await told('not a capture')).toEqual({ formats: [], end: 'declined' });
    // Our header and nothing else: chosen, then declined, and the careful reader finds no record either.
    const headerOnly = exportJsonl([], { createdAt: '2026-01-01T00:00:00Z' }) + '\n\n';
    expect(await told(headerOnly)).toEqual({ formats: ['jsonl'], end: 'declined' });
    expect(readJsonl(headerOnly).exchanges).toEqual([]);
  });

  it('hands on growing batches when asked: each `batchGrowth` times the one before, up to `batchMax`', async () => {
    const recs = Array.from({ length: 40 }, (_, i) => ({ ...sampleRecords()[0]!, id: `g-${i}`, seq: i }));
    const text = exportJsonl(recs, { createdAt: '2026-01-01T00:00:00Z' });
    const { end, batches, records } = await stream(text, 1, { batchSize: 2, batchGrowth: 2, batchMax: 8 });
    expect(end.kind).toBe('done');
    expect(batches.map((b) => b.length)).toEqual([2, 4, 8, 8, 8, 8, 2]);
    expect(records.map((r) => r.id)).toEqual(recs.map((r) => r.id));
  });

  it('stops at the next piece once cancelled, having handed on only whole batches', async () => {
    let n = 0;
    const { end, records } = await stream(SDK, 256, { cancelled: () => ++n > 20 });
    expect(end.kind).toBe('cancelled');
    expect(records.length % 3).toBe(0);
    const whole = importCapture(SDK);
    if (whole.ok) expect(records).toEqual(whole.exchanges.slice(0, records.length));
  });
});

describe('JsonlStream', () => {
  it('reads the same for every split of the text as readJsonl reads it whole, bad and cut lines included', () => {
    const recs = sampleRecords();
    const text = '\uFEFF' + exportJsonl(recs, { createdAt: 'x' }) + '\r\n{"bad json\n\n' + jsonlLine(recs[1]).slice(0, 30);
    const whole = readJsonl(text);
    expect(whole.skipped).toHaveLength(2);
    for (let k = 0; k <= text.length; k++) {
      const byId = new Map<string, ExchangeRecord>();
      const s = new JsonlStream((r) => byId.set(r.id, r));
      s.push(text.slice(0, k));
      s.push(text.slice(k));
      const got = s.end();
      expect([...byId.values()], `split ${k}`).toEqual(whole.exchanges);
      expect(got.skipped, `split ${k}`).toEqual(whole.skipped);
      expect(got.recordLines).toBe(whole.recordLines);
    }
  });
});
