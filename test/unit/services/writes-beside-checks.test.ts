// The relay's and an import's writes wait for what was laid in to be listed, not checked
// (ServiceContext.listed, services/context.ts): a backlog's storage runs beside its trailing
// checks instead of after them. `analysed` (checks included) is what the check gate waits for.
import 'fake-indexeddb/auto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import { createContext } from '../../../worker/services/context.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { generateCapture } from '../../bench/generate-capture.js';

/** A generated capture of `n` exchanges, numbered into `session`. */
async function backlog(n: number, session: string): Promise<StoredExchange[]> {
  const dir = mkdtempSync(join(tmpdir(), 'writes-beside-checks-'));
  try {
    const file = join(dir, 'capture.har');
    await generateCapture(file, n);
    const imported = importCapture(readFileSync(file, 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    return imported.exchanges.map((r, seq) => ({ ...r, seq, session, source: 'relay', state: 'complete' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('writes wait for the listing, not the checks', () => {
  it('`listed` resolves once a laid-in backlog is built, while its checks still trail; `analysed` once they are done', async () => {
    const ctx = createContext();
    try {
      const { id: session } = await ctx.store.currentSession();
      const records = await backlog(6000, session);
      const model = await ctx.modelOf(session);
      // As the relay feed lays a drain in: whole copies, not yet written.
      await ctx.owner.apply(records, { unstored: true });
      await ctx.listed();
      // Everything is listed (threaded, in the rows) ...
      const b = await ctx.builtOf(session);
      expect(b.exchanges).toBe(records.length);
      expect(model.records.size).toBe(records.length);
      // ... while what the builds left unchecked is still being checked in slices.
      const left = model.unchecked;
      expect(left).toBeGreaterThan(0);
      await ctx.analysed();
      expect(model.unchecked).toBe(0);
    } finally {
      ctx.store.close();
    }
  }, 60_000);
});
