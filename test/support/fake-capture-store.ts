// The capture store as the relay feed's tests stand it in: one capture session, numbers
// handed out a block at a time as storage does (storage/reserve.ts reserveSeqs), nothing of
// the backlog stored yet, and the writes left to the test (`write`: settle them when it
// likes, fail one to play a full disk).
import type { CaptureStore, ReservedCopy } from '../../worker/storage/index.js';

export function fakeCaptureStore(write: (items: readonly ReservedCopy[]) => Promise<string[]>): CaptureStore {
  let nextSeq = 0;
  return {
    async currentSession() { return { id: 's', name: 'Session 1', createdAt: 0, nextSeq }; },
    async reserveSeqs(_session: string, count: number) {
      const first = nextSeq;
      nextSeq += count;
      return { first, end: nextSeq, restarted: false };
    },
    async lookupExchanges(batch: readonly { id: string }[]) { return batch.map(() => undefined); },
    writeReserved: write,
  } as unknown as CaptureStore;
}

/** A write the test settles: `settle(true)` commits it (its ids join the committed set),
 *  `settle(false)` fails it as a full disk would. */
export interface HeldWrite { ids: string[]; settled: boolean; settle: (ok: boolean) => void }

/** Writes held until the test settles each (`writes`, in the order they came); `write` is
 *  the store's writeReserved. */
export function heldWrites(committed: Set<string>): { writes: HeldWrite[]; write: (items: readonly ReservedCopy[]) => Promise<string[]> } {
  const writes: HeldWrite[] = [];
  const write = (items: readonly ReservedCopy[]) => new Promise<string[]>((resolve, reject) => {
    const w: HeldWrite = {
      ids: items.map((i) => i.copy.id), settled: false,
      settle: (ok) => {
        w.settled = true;
        if (!ok) return reject(new Error('QuotaExceededError'));
        for (const id of w.ids) committed.add(id);
        resolve([]);
      },
    };
    writes.push(w);
  });
  return { writes, write };
}
