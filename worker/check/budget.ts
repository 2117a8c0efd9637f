// The check's one door to the server: every request goes through this transport, which
// keeps the total budget (requests and wall time) and never lets more than `concurrency`
// be in flight. Over budget, a send is refused as a failed exchange (status 0 with the
// reason), the way a transport reports trouble, so the engine needs no special case.
import type { ConsoleRequest, ConsoleResponse, Transport } from '../console/types.js';

/** The budgeted transport and what it has spent. */
export interface Budget {
  send: Transport;
  /** Requests sent so far. */
  readonly calls: number;
  /** Why the budget ran out, once it has. */
  readonly exhausted: string | undefined;
}

/** Wraps `send` with a cap on requests, on wall time from now, and on requests in flight;
 *  once `signal` is aborted (the page's Stop) nothing more is sent. */
export function budgeted(send: Transport, opts: { maxCalls?: number; maxTimeMs?: number; concurrency?: number; now?: () => number; signal?: AbortSignal }): Budget {
  const now = opts.now ?? Date.now;
  const deadline = opts.maxTimeMs !== undefined ? now() + opts.maxTimeMs : Infinity;
  const limit = Math.max(1, opts.concurrency ?? 4);
  let calls = 0;
  let exhausted: string | undefined;
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const acquire = () => (inFlight < limit ? (inFlight++, Promise.resolve()) : new Promise<void>((r) => waiting.push(() => (inFlight++, r()))));
  const release = () => {
    inFlight--;
    waiting.shift()?.();
  };
  const refuse = (why: string): ConsoleResponse => {
    exhausted ??= why;
    const at = now();
    return { status: 0, headers: [], sentAt: at, endedAt: at, error: `not sent: ${why}` };
  };
  return {
    get calls() {
      return calls;
    },
    get exhausted() {
      return exhausted;
    },
    async send(req: ConsoleRequest) {
      await acquire();
      try {
        if (opts.signal?.aborted) return refuse('stopped by the user');
        if (opts.maxCalls !== undefined && calls >= opts.maxCalls) return refuse(`the budget of ${opts.maxCalls} requests is spent`);
        if (now() >= deadline) return refuse(`the time budget of ${Math.round((opts.maxTimeMs ?? 0) / 1000)} s is spent`);
        calls++;
        return await send(req);
      } finally {
        release();
      }
    },
  };
}
