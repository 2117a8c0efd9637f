// Ends exchanges that a previous capture worker left open: recorded `pending` or
// `streaming`, but the worker writing them is gone, so nobody will ever write their end.
//
// When this is true: a new worker version activates only once the outgoing one has no
// work in flight (Chromium lets an open stream finish in the old worker, then swaps), so
// at activation every exchange the old worker tapped has had its last write committed,
// unless the browser removed the old worker with a stream still open (Chromium does that
// after 5 minutes of waiting, kMaxLameDuckTime; or it was killed). Those are recorded
// `aborted` here, with what arrived until then, so they read as cut rather than running
// forever.
//
// Hazards, written down:
// - Only the tap's own records (source `sw`) of the capture session are touched. Relay
//   records are the relay's to end, and Console sends (source `console`) are left alone:
//   the analysis worker's own copy supersedes one left `pending` when the send was not
//   taken, and an `aborted` mark here would stand in its way, as a final state is never
//   replaced. A taken send whose service worker was stopped stays `pending` (known gap).
// - Only records started before this worker activated: anything later is this worker's own.
// - If the old worker was not dead after all and writes its end later, that write wins
//   (the tap's updates are unconditional): a truer ending replaces ours.
import type { CaptureStore, PageCursor, StoredExchange } from '../../worker/storage/index.js';
import type { CaptureNotice } from './messages.js';

const PAGE = 200;
export const ORPHAN_ERROR =
  'The capture service worker recording this exchange went away before it ended (it was replaced by a new version, or the browser stopped it); what arrived until then is kept.';

// When the exchange was last heard of: its last event, its response head, or its start.
function lastHeard(r: StoredExchange): number {
  return r.response?.events?.at(-1)?.t ?? r.response?.receivedAt ?? r.startedAt;
}

/**
 * Marks the capture session's open `sw` records started before `cutoff` as aborted, and
 * announces each. Resolves to how many were ended.
 */
export async function endOrphans(store: CaptureStore, session: string, cutoff: number, announce: (n: CaptureNotice) => void): Promise<number> {
  const open: string[] = [];
  let after: PageCursor | null = null;
  do {
    const page = await store.pageExchanges(session, { after, limit: PAGE });
    for (const r of page.items) {
      if (r.source === 'sw' && (r.state === 'pending' || r.state === 'streaming') && r.startedAt < cutoff) open.push(r.id);
    }
    after = page.next;
  } while (after);

  let ended = 0;
  for (const id of open) {
    let changed = false;
    const rec = await store.updateExchange(id, (r) => {
      if (r.state !== 'pending' && r.state !== 'streaming') return; // ended meanwhile
      r.state = 'aborted';
      r.endedAt = lastHeard(r);
      r.error = ORPHAN_ERROR;
      changed = true;
    });
    if (changed) {
      ended++;
      announce({ type: 'exchange-end', id, seq: rec.seq });
    }
  }
  return ended;
}
