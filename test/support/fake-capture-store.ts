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
