// Everything the page and the service worker say to each other. Types only: imported with
// `import type` from both sides (the page under the DOM lib, the worker under WebWorker).
import type { StorageErrorInfo } from '../../worker/storage/index.js';
import type { UnsavedExchange } from '../../worker/view/session-model.js';

/** The BroadcastChannel the service worker announces captures on. */
export const CAPTURE_CHANNEL = 'mrtr-capture';

/**
 * A small notice, posted after the matching IndexedDB write committed: readers fetch the
 * record by id. `seq` is the exchange's position in its session.
 */
export type CaptureNotice =
  | { type: 'exchange-start' | 'exchange-head' | 'exchange-events' | 'exchange-end'; id: string; seq?: number }
  | { type: 'storage-error'; id?: string; seq?: number; error: StorageErrorInfo }
  /**
   * A write of this exchange failed (storage full, or any storage error), so IndexedDB does
   * not hold it as it stands. `record` is the whole exchange as far as it got (`seq` only
   * when an earlier step was stored); it is posted again after every later step, the last
   * copy being the most complete. The page keeps it in memory until "Retry saving" writes it.
   */
  | { type: 'exchange-unsaved'; id: string; seq?: number; record: UnsavedExchange; error: StorageErrorInfo };

/** Page → service worker, each over its own MessageChannel port. */
export type SwRequest =
  | { type: 'hello'; protocol: number; build: string }
  /** The watched targets changed in IndexedDB: re-read them before answering. */
  | { type: 'targets-changed' }
  /** The capture session setting changed. */
  | { type: 'session-changed' }
  /** Take control of this (uncontrolled, e.g. after a hard reload) page. */
  | { type: 'claim' };

export type SwReply =
  | { type: 'hello'; protocol: number; build: string; stale: boolean }
  | { type: 'ack' };
