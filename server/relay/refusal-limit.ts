// How many refused requests the relay records. Any web page can make a browser send
// requests to 127.0.0.1 (no-cors fetches need no permission), and each refusal is recorded
// so the developer can see why their client failed; unbounded, a page wrote 177 MB of them
// in 72 s. So per window at most `count` records or `bytes` of them are kept; the rest are
// counted and, when the window ends, recorded as one summary.
import type { ExchangeRecord } from '../../worker/protocol.js';

/** Defaults: a window of 10 s, 50 refusals or 256 KiB in it. */
export const REFUSAL_WINDOW_MS = 10_000;
export const REFUSALS_PER_WINDOW = 50;
export const REFUSAL_BYTES_PER_WINDOW = 256 * 1024;

export interface RefusalLimitOptions { windowMs?: number; count?: number; bytes?: number; now?: () => number }

/** Passes refusal records on to `record` within the bounds, and a summary of the rest. */
export class RefusalLimit {
  readonly #record: (r: ExchangeRecord) => void;
  readonly #windowMs: number;
  readonly #count: number;
  readonly #bytes: number;
  readonly #now: () => number;
  #start = -Infinity;
  #kept = 0;
  #keptBytes = 0;
  #dropped = 0;
  #last: ExchangeRecord | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(record: (r: ExchangeRecord) => void, o: RefusalLimitOptions = {}) {
    this.#record = record;
    this.#windowMs = o.windowMs ?? REFUSAL_WINDOW_MS;
    this.#count = o.count ?? REFUSALS_PER_WINDOW;
    this.#bytes = o.bytes ?? REFUSAL_BYTES_PER_WINDOW;
    this.#now = o.now ?? Date.now;
  }

  /** One refusal's record: recorded, or counted for the window's summary. */
  add(r: ExchangeRecord): void {
    const now = this.#now();
    if (now - this.#start >= this.#windowMs) this.#roll(now);
    const size = JSON.stringify(r).length;
    if (this.#kept < this.#count && this.#keptBytes + size <= this.#bytes) {
      this.#kept++;
      this.#keptBytes += size;
      this.#record(r);
      return;
    }
    this.#dropped++;
    this.#last = r;
    this.#timer ??= setTimeout(() => this.#roll(this.#now()), this.#start + this.#windowMs - now).unref?.() as ReturnType<typeof setTimeout> | undefined;
  }

  /** Records the summary now, if any refusals were counted (relay shutdown). */
  flush(): void {
    this.#roll(this.#now());
  }

  #roll(now: number): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#dropped > 0 && this.#last) this.#record(summary(this.#last, this.#dropped, this.#windowMs, this.#count, this.#bytes));
    this.#start = now;
    this.#kept = 0;
    this.#keptBytes = 0;
    this.#dropped = 0;
    this.#last = undefined;
  }
}

// One record standing for the refusals not recorded: the last one's time and URL, no headers.
function summary(last: ExchangeRecord, n: number, windowMs: number, count: number, bytes: number): ExchangeRecord {
  const reason = `${n} more refused request${n === 1 ? '' : 's'} within ${windowMs / 1000} s ${n === 1 ? 'was' : 'were'} not recorded (at most ${count} refusals or ${Math.round(bytes / 1024)} KiB of them are recorded per ${windowMs / 1000} s); the last: ${last.refused ?? ''}`;
  return {
    ...last,
    request: { method: last.request.method, url: last.request.url, headers: [] },
    response: { status: last.response?.status ?? 403, headers: [], receivedAt: last.response?.receivedAt ?? last.startedAt, body: JSON.stringify({ error: reason }) },
    error: `refused by the relay: ${reason}`,
    refused: reason,
  };
}
