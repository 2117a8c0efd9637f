// Which capture notices say a record is stored (worker/capture/notices.ts `storedIds`): the
// page, the analysis worker and the push writer each act on those ids and on no others.
import { describe, expect, it } from 'vitest';
import { storedIds, type CaptureNotice } from '../../../worker/capture/notices.js';

const error = { kind: 'quota', message: 'full' } as never;

describe('the ids a notice says are stored', () => {
  it('names a committed step of the tap and every id of a relay transaction', () => {
    for (const type of ['exchange-start', 'exchange-head', 'exchange-events', 'exchange-end'] as const) {
      expect(storedIds({ type, id: 'x1', seq: 3 })).toEqual(['x1']);
    }
    expect(storedIds({ type: 'exchanges-stored', ids: ['a', 'b'] })).toEqual(['a', 'b']);
  });

  it('names none for a refused write, a change of capture session or copies not yet written', () => {
    const none: CaptureNotice[] = [
      { type: 'storage-error', id: 'x1', seq: 3, error },
      { type: 'exchange-unsaved', id: 'x1', record: {} as never, error },
      { type: 'capture-session' },
      { type: 'backlog-laid', records: [{ id: 'x1' } as never] },
    ];
    for (const n of none) expect(storedIds(n)).toEqual([]);
  });
});
