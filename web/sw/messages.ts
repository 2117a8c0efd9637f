// Everything the page and the service worker say to each other. Types only: imported with
// `import type` from both sides (the page under the DOM lib, the worker under WebWorker).
export { CAPTURE_CHANNEL, storedIds, type CaptureNotice } from '../../worker/capture/notices.js';

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
