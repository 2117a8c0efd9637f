// The page's streaming import (services/import-api.ts): a file is listed as it is read and
// written behind it; the reading stops for storage only past the memory bound; nothing is
// checked while it is read (the `reading` signal is held until the file is read).
import { describe, expect, it } from 'vitest';
import { exportJsonl } from '../../../worker/capture/jsonl.js';
import { createImportApi, type ImportProgress } from '../../../worker/services/import-api.js';
import type { CaptureStore, StoredExchange } from '../../../worker/storage/index.js';
import type { SessionModel } from '../../../worker/view/session-model.js';
import { capture, reply, ask } from '../../support/capture-builder.js';

/** `calls` two-round calls as a JSONL file (two exchanges each), read in 64 KiB pieces as a
 *  browser reads a picked file. */
function file(calls: number): Blob {
  const cap = capture();
  for (let i = 0; i < calls; i++) {
    const first = cap.call('tools/call', { name: 'step', arguments: { i } }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, `tok-${i}`);
    cap.retry(first, { k: reply.accept({ a: 'b' }) });
  }
  const bytes = new TextEncoder().encode(exportJsonl(cap.build()));
  const stream = () => new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.subarray(i, i + 65536));
      c.close();
    },
  });
  return { size: bytes.length, stream } as unknown as Blob;
}

const writes = (log: string[]) => log.filter((l) => l.startsWith('write'));
const listedAt = (line: string) => Number(/listed (\d+)/.exec(line)![1]);
const writtenIn = (line: string) => Number(/write (\d+)/.exec(line)![1]);

/** Runs an import, logging what happened in order: batches listed, writes, the reading signal. */
async function run(blob: Blob, maxUnwrittenBytes?: number) {
  const log: string[] = [];
  let listed = 0;
  const store = {
    async createSession(name: string) { return { id: 's1', name, createdAt: 0 }; },
    async putExchanges(records: readonly StoredExchange[]) { log.push(`write ${records.length} (listed ${listed})`); },
    async renameSession() { /* not reached */ },
    async deleteSession() { /* not reached */ },
    async getExchanges() { return []; },
  } as unknown as CaptureStore;
  const sessions = new Map<string, Promise<SessionModel>>();
  const api = createImportApi({
    store, sessions,
    importText: async () => { throw new Error('the careful path was not expected'); },
    quiet: async () => undefined,
    reading: () => {
      log.push('reading');
      return () => log.push(`read (listed ${listed})`);
    },
    checkMs: () => 0,
    ...(maxUnwrittenBytes === undefined ? {} : { maxUnwrittenBytes }),
  });
  const answer = await api.importStream('job', blob, 'calls.jsonl', false, (p: ImportProgress) => { listed = p.listed; });
  return { log, answer, sessions };
}

describe('the streaming import', () => {
  it('lists the whole file before it writes any of it, and checks nothing until it is read', async () => {
    const { log, answer, sessions } = await run(file(2600));
    expect(answer.ok).toBe(true);
    expect(log[0]).toBe('reading');
    expect(log[1]).toBe('read (listed 5200)');
    // Written afterwards, in batches, all of it.
    expect(log.slice(2)).toEqual(writes(log));
    expect(writes(log).length).toBeGreaterThanOrEqual(2);
    for (const w of writes(log)) expect(listedAt(w)).toBe(5200);
    expect(writes(log).map(writtenIn).reduce((a, b) => a + b, 0)).toBe(5200);
    // The session's model was built with the host's check budget: what it lists is not checked yet.
    const model = await sessions.get('s1')!;
    const built = await model.built(() => [], 0);
    expect(built.exchanges).toBe(5200);
    expect(built.unchecked).toBeGreaterThan(0);
  });

  it('stops reading for storage each time more than the memory bound is held unwritten', async () => {
    const { log, answer } = await run(file(2600), 1);
    expect(answer.ok).toBe(true);
    // Each batch is written before the next is read: writes come while the file is listed.
    const w = writes(log);
    expect(w.length).toBeGreaterThanOrEqual(2);
    expect(listedAt(w[0])).toBeLessThan(5200);
    for (let i = 1; i < w.length; i++) expect(listedAt(w[i])).toBeGreaterThan(listedAt(w[i - 1]));
    expect(w.map(writtenIn).reduce((a, b) => a + b, 0)).toBe(5200);
    expect(log.indexOf('read (listed 5200)')).toBeGreaterThan(log.indexOf(w[0]));
  });
});
