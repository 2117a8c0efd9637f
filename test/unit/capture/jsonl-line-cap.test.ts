// JSONL lines past the one-record limit: skipped with a message saying which line and how
// long, never joined into one string (a hostile capture's 1 GB line once crashed the CLI).
import { describe, expect, it } from 'vitest';
import { exportJsonl, jsonlLine } from '../../../worker/capture/index.js';
import { JsonlStream } from '../../../worker/capture/jsonl.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { sampleRecords } from './sample-records.js';

const CAP = 2000;

function readSplit(text: string, k: number, max = CAP) {
  const byId = new Map<string, ExchangeRecord>();
  const s = new JsonlStream((r) => byId.set(r.id, r), { maxLineChars: max });
  s.push(text.slice(0, k));
  s.push(text.slice(k));
  const read = s.end();
  return { records: [...byId.values()], read };
}

describe('JsonlStream line limit', () => {
  const recs = sampleRecords().filter((r) => jsonlLine(r).length < CAP);
  const huge = '{"id":"' + 'x'.repeat(CAP * 3) + '"}';
  const text = exportJsonl(recs.slice(0, 2), { createdAt: 'x' }) + huge + '\n' + jsonlLine(recs[2]);

  it('skips a line longer than the limit, naming it and its length, and reads the lines around it, for every split', () => {
    for (let k = 0; k <= text.length; k += 97) {
      const { records, read } = readSplit(text, k);
      expect(records.map((r) => r.id), `split ${k}`).toEqual(recs.slice(0, 3).map((r) => r.id));
      expect(read.skipped, `split ${k}`).toEqual([{ index: 3, where: 'line 4', message: `the line is ${huge.length} characters long, more than the ${CAP} characters one record may take; it was skipped unread` }]);
      expect(read.recordLines).toBe(4);
    }
  });

  it('skips an overlong last line that never ends', () => {
    const cut = exportJsonl(recs.slice(0, 1), { createdAt: 'x' }) + huge;
    const { records, read } = readSplit(cut, 100);
    expect(records).toHaveLength(1);
    expect(read.skipped.map((s) => s.where)).toEqual(['line 3']);
  });

  it('reads a line of exactly the limit', () => {
    const line = jsonlLine(recs[0]).slice(0, -1);
    const { records, read } = readSplit(line + '\n', 5, line.length);
    expect(read.skipped).toEqual([]);
    expect(records).toHaveLength(1);
  });
});
