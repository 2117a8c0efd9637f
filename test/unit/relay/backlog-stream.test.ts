// The relay writes a drain's batch to the page as it reads it from the capture file
// (server/relay/capture-file.ts, page-api.ts), instead of reading the whole batch (64 MiB
// by default) before answering: the page starts reading while the rest is still read. The
// pieces are the file's own bytes, whole lines each, never decoded on the way.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { Backlog } from '../../../server/relay/backlog.js';
import { CaptureFile } from '../../../server/relay/capture-file.js';
import { parseJsonl } from './relay-harness.js';

const BATCH = 4096;
const PIECE = 256;

function rec(i: number): ExchangeRecord {
  return {
    v: 1, id: `ex-${i}`, seq: i, source: 'relay', startedAt: 1_000 + i, state: 'complete',
    request: { method: 'POST', url: 'http://t/mcp', headers: [], body: `{"n":${i},"pad":"${'é'.repeat(40)}"}` },
    response: { status: 200, headers: [], receivedAt: 2_000 + i, body: '{"ok":true}' },
  };
}

describe('the relay backlog, streamed', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });
  async function filled(n: number) {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-stream-'));
    dirs.push(dir);
    const file = new CaptureFile(join(dir, 'c.jsonl'), () => undefined, { batchBytes: BATCH, pieceBytes: PIECE });
    for (let i = 0; i < n; i++) await file.append(rec(i));
    return new Backlog(file);
  }

  it("writes a drain's batch as it reads it: the head first, then the lines in pieces, the same lines as a whole answer", async () => {
    const backlog = await filled(60);
    const whole = await backlog.handOut();
    const seen: string[] = [];
    const pieces: Uint8Array[] = [];
    const streamed = await backlog.handOut({
      head: (drain, more) => void seen.push(`head ${drain.length > 0} ${more}`),
      write: (b) => {
        seen.push('piece');
        pieces.push(b);
      },
    });
    expect(seen[0]).toBe(`head true ${whole.more}`);
    expect(pieces.length).toBeGreaterThan(3);
    // Whole lines per piece: a piece never ends inside a line (nor inside an 'é').
    for (const p of pieces) expect(p.at(-1)).toBe(10);
    const text = Buffer.concat(pieces).toString('utf8');
    expect(streamed.content).toBe('');
    expect(text).toBe(whole.content);
    expect(streamed.more).toBe(true);
    // The streamed drain is acknowledged like any other.
    const ids = parseJsonl(text).records.map((r) => r.id);
    expect(await backlog.ack({ drain: streamed.drain, ids })).toMatchObject({ ok: true, removed: ids.length });
  });

  it('says "no more" up front for a backlog that fits the bound, and hands an empty file out as nothing', async () => {
    const backlog = await filled(3);
    let more: boolean | null = null;
    let text = '';
    await backlog.handOut({ head: (_d, m) => void (more = m), write: (b) => void (text += Buffer.from(b).toString('utf8')) });
    expect(more).toBe(false);
    expect(parseJsonl(text).records).toHaveLength(3);
    const empty = new Backlog(new CaptureFile(join(dirs[0]!, 'none.jsonl'), () => undefined));
    let head: boolean | null = null;
    let pieces = 0;
    await empty.handOut({ head: (_d, m) => void (head = m), write: () => void pieces++ });
    expect(head).toBe(false);
    expect(pieces).toBe(0);
  });
});
