// Everything the page and the service worker say to each other. Types only: imported with
// `import type` from both sides (the page under the DOM lib, the worker under WebWorker).
import type { StorageErrorInfo } from '../../worker/storage/index.js';

/** The BroadcastChannel the service worker announces captures on. */
export const CAPTURE_CHANNEL = 'mrtr-capture';

/**
 * A small notice, posted after the matching IndexedDB write committed: readers fetch the
 * record by id. `seq` is the exchange's position in its session.
 */
export type CaptureNotice =
  | { type: 'exchange-start' | 'exchange-head' | 'exchange-events' | 'exchange-end'; id: string; seq?: number }
  | { type: 'storage-error'; id?: string; seq?: number; error: StorageErrorInfo };

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
