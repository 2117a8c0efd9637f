// A Console exchange's origin survives export and import, in HAR (_mrtr.origin) and JSONL;
// a malformed origin is named where it is wrong.
import { describe, expect, it } from 'vitest';
import { exportHar, importCapture } from '../../../worker/capture/index.js';
import { exportJsonl } from '../../../worker/capture/jsonl.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { sampleRecords } from './sample-records.js';

function withOrigins(): ExchangeRecord[] {
  const records = structuredClone(sampleRecords());
  records[0].origin = { kind: 'tamper', run: 'r-1' };
  records[1].origin = { kind: 'fork' };
  return records;
}

function reimport(text: string): ExchangeRecord[] {
  const out = importCapture(text);
  if (!out.ok) throw new Error(`${out.error.where}: ${out.error.message}`);
  return out.exchanges;
}

describe('origin in capture formats', () => {
  it('keeps origin and run through HAR and JSONL', () => {
    for (const text of [exportHar(withOrigins()), exportJsonl(withOrigins())]) {
      const back = reimport(text);
      expect(back.map((r) => r.origin)).toEqual(withOrigins().map((r) => r.origin));
    }
  });

  it('refuses a JSONL record whose origin is not one it knows, saying where', () => {
    const text = exportJsonl(withOrigins()).replace('"kind":"tamper"', '"kind":"teleport"');
    const out = importCapture(text);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.message).toContain('origin.kind must be one of discovery');
  });
});
