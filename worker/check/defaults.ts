// The check's defaults, one place for the CLI's options and the page's "Check this server":
// the same budget of requests and time, the same concurrency and the same wait for expiry.

export const CHECK_DEFAULTS = {
  /** Longest wait for a token to expire (ms). */
  maxWaitMs: 5_000,
  /** Requests sent in all. */
  maxCalls: 2_000,
  /** Wall time before the check stops sending (ms). */
  maxTimeMs: 300_000,
  /** Requests in flight at once. */
  concurrency: 4,
  /** Longest wait for one answer (ms). */
  timeoutMs: 30_000,
} as const;
