// Reading the relay's own files in pieces (server/relay/private-files.ts): lines whole
// across piece boundaries, a last line without its newline, an early stop, a start offset,
// the bytes from an offset as they are, and a missing file read as empty.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBytesPrivate, readLineBytesPrivate } from '../../../server/relay/private-files.js';

const TEXT = 'first\nsecond line, é and ✓\n\nfourth\nno newline';
let dir: string;
let path: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mrtr-private-read-'));
  path = join(dir, 'f.jsonl');
  await writeFile(path, TEXT, { mode: 0o600 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function lines(pieceBytes: number, from = 0, stopAt?: string): Promise<string[]> {
  const out: string[] = [];
  await readLineBytesPrivate(path, (line) => {
    out.push(line.toString('utf8'));
    if (out.at(-1) === stopAt) return false;
  }, pieceBytes, from);
  return out;
}

describe('reading a private file in pieces', () => {
  it('hands every line whole, whatever the piece size, the last one without its newline too', async () => {
    for (const size of [1, 2, 3, 5, 7, 64, 4096]) expect(await lines(size), `pieces of ${size}`).toEqual(TEXT.split('\n'));
  });

  it('stops at the line that says so and hands nothing after it, and starts at an offset', async () => {
    expect(await lines(3, 0, 'fourth')).toEqual(['first', 'second line, é and ✓', '', 'fourth']);
    expect(await lines(4, Buffer.byteLength('first\n'))).toEqual(TEXT.split('\n').slice(1));
  });

  it('hands the bytes from an offset as they are, and stops when asked', async () => {
    const from = Buffer.byteLength('first\nsecond');
    const pieces: Buffer[] = [];
    await readBytesPrivate(path, from, (b) => void pieces.push(Buffer.from(b)), 4);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(TEXT.slice('first\nsecond'.length));
    expect(pieces.every((p) => p.length <= 4)).toBe(true);
    let calls = 0;
    await readBytesPrivate(path, 0, () => {
      calls++;
      if (calls === 2) return false;
    }, 4);
    expect(calls).toBe(2);
  });

  it('reads a missing file as empty', async () => {
    const seen: unknown[] = [];
    await readLineBytesPrivate(join(dir, 'absent'), (l) => void seen.push(l));
    await readBytesPrivate(join(dir, 'absent'), 0, (b) => void seen.push(b));
    expect(seen).toEqual([]);
  });
});
