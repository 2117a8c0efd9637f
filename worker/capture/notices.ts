// What the capture service worker (and the relay feed) announce on one BroadcastChannel after
// each committed write. The analysis worker listens and is the only reader that acts on them
// (it owns the sessions); the page listens only for what it keeps itself (held exchanges it
// must not lose, storage errors it must show). Types, constants and one reader (`storedIds`):
// every host imports it.
import type { StorageErrorInfo, StoredExchange } from '../storage/index.js';
import type { UnsavedExchange } from '../view/session-model.js';

/** The BroadcastChannel captures are announced on. */
export const CAPTURE_CHANNEL = 'mrtr-capture';

/** The channel `backlog-laid` goes on, heard by the analysis workers only: on the capture
 *  channel every page would take a copy of a whole run's records on its main thread. */
export const BACKLOG_CHANNEL = 'mrtr-capture-backlog';

/**
 * A small notice, posted after the matching IndexedDB write committed: readers fetch the
 * record by id. `seq` is the exchange's position in its session.
 */
export type CaptureNotice =
  | { type: 'exchange-start' | 'exchange-head' | 'exchange-events' | 'exchange-end'; id: string; seq?: number }
  /**
   * Several exchanges committed in one transaction (the relay feed's writes): one notice
   * per transaction, not per record, so a backlog of thousands is not thousands of posts.
   */
  | { type: 'exchanges-stored'; ids: string[] }
  /**
   * Copies a tab's relay feed numbered from the backlog and laid in, NOT yet written, posted
   * only while another tab waits to drain after it (capture/backlog-lock.ts): empty for each
   * batch the run reads (it is moving), then the run's copies once its writes begin, which that
   * tab lists under the numbers they will be stored with. `exchanges-stored` follows per write.
   * Posted on BACKLOG_CHANNEL, not CAPTURE_CHANNEL.
   */
  | { type: 'backlog-laid'; records: StoredExchange[] }
  | { type: 'storage-error'; id?: string; seq?: number; error: StorageErrorInfo }
  /** Captures go to another session from now on (a page's Clear with preserve log): whoever
   *  keeps the capture session (the relay feed's numbering) reads it again. */
  | { type: 'capture-session' }
  /**
   * A write of this exchange failed (storage full, or any storage error), so IndexedDB does
   * not hold it as it stands. `record` is the whole exchange as far as it got (`seq` only
   * when an earlier step was stored); it is posted again after every later step, the last
   * copy being the most complete. The page keeps it in memory until "Retry saving" writes it.
   */
  | { type: 'exchange-unsaved'; id: string; seq?: number; record: UnsavedExchange; error: StorageErrorInfo };

/** The ids a notice says are now stored (a tap's committed step, a relay transaction); none
 *  for the others: a refused write, a change of capture session, copies not yet written. */
export function storedIds(n: CaptureNotice): readonly string[] {
  switch (n.type) {
    case 'exchanges-stored':
      return n.ids;
    case 'exchange-start':
    case 'exchange-head':
    case 'exchange-events':
    case 'exchange-end':
      return [n.id];
    default:
      return [];
  }
}

/** The part of a BroadcastChannel the owner uses (Node's and the browser's both fit). */
export interface NoticeChannel {
  postMessage(notice: CaptureNotice): void;
  onmessage: ((e: MessageEvent<CaptureNotice>) => void) | null;
  close(): void;
}
