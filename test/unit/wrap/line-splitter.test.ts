// The wrap's line splitter against output that never ends a line: it holds at most its
// limit, and hands the line on cut, with its size and last bytes (a server once sent 2.7 GB
// with no newline and the wrap held all of it).
import { describe, expect, it } from 'vitest';
import { LineSplitter, TAIL_BYTES, type CutLine } from '../../../cli/wrap/line-splitter.js';

describe('LineSplitter with a limit', () => {
  it('holds no more than its limit of a 10 MiB line with no newline, and hands it on cut with its size and tail at the end', () => {
    const lines: { text: string; cut?: CutLine }[] = [];
    const s = new LineSplitter((l, cut) => lines.push({ text: l.toString(), cut }), 1000);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let most = 0;
    for (let i = 0; i < 160; i++) {
      s.push(chunk);
      most = Math.max(most, s.buffered);
    }
    s.push(Buffer.from('END\nnext\n'));
    s.end();
    expect(most).toBeLessThanOrEqual(1000);
    expect(lines).toHaveLength(2);
    expect(lines[0].text).toBe('x'.repeat(1000));
    expect(lines[0].cut!.totalBytes).toBe(160 * 64 * 1024 + 3);
    expect(lines[0].cut!.tail.toString()).toBe('x'.repeat(TAIL_BYTES - 3) + 'END');
    expect(lines[1]).toEqual({ text: 'next', cut: undefined });
  });

  it('hands on an unterminated cut line at the end of the stream', () => {
    const got: number[] = [];
    const s = new LineSplitter((_l, cut) => got.push(cut?.totalBytes ?? -1), 10);
    s.push(Buffer.from('a'.repeat(25)));
    s.end();
    expect(got).toEqual([25]);
  });

  it('gives lines within the limit whole, split across chunks, without a trailing CR', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l, cut) => lines.push(l.toString() + (cut ? '!' : '')), 11);
    for (const c of ['ab', 'cdefghij\r\n', 'k\n']) s.push(Buffer.from(c));
    expect(lines).toEqual(['abcdefghij', 'k']);
  });
});
