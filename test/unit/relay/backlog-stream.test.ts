// The relay writes a drain's batch to the page as it reads it from the capture file
// (server/relay/capture-file.ts, page-api.ts), instead of reading the whole batch (16 MiB
// by default) before answering: the page starts storing while the rest is still read.
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
    let text = '';
    const streamed = await backlog.handOut({
      head: (drain, more) => void seen.push(`head ${drain.length > 0} ${more}`),
      write: (t) => {
        seen.push('piece');
        text += t;
      },
    });
    expect(seen[0]).toBe(`head true ${whole.more}`);
    expect(seen.filter((s) => s === 'piece').length).toBeGreaterThan(3);
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
    await backlog.handOut({ head: (_d, m) => void (more = m), write: (t) => void (text += t) });
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
