// How a host configures the analysis engine: keys, lint bounds, whether the capture is over,
// which rules run, and how the engine keeps the records it is handed.
//
// Hazard: `releaseBodies` lets the engine mutate the records passed in; a host that still
// shows raw bodies must pass `lean` (or neither) instead.
import type { LintOptions, Rule } from '../lint/rule.js';
import { DEFAULT_LINT_OPTIONS } from '../lint/rule.js';
import type { HmacSha256Check, TokenKey } from '../tokens/index.js';

/** The engine's options (every one optional). */
export interface EngineOptions {
  /**
   * Keys per server: given the URL of the exchange that issued a token (or sent it, when no
   * answer in the capture issued it), the keys to try. A token whose server has no key
   * reads as unverified (null), never as failing.
   */
  keysFor?: (url: string) => readonly TokenKey[];
  /** Whether any key was configured at all (lint's `keysGiven`); default: keysFor given. */
  keysGiven?: boolean;
  maxRounds?: number;
  ttlBoundSeconds?: number;
  /** The capture has ended (CLI, imports): waiting chains are `abandoned`. Default true. */
  final?: boolean;
  /** Rules to run; every shipped rule by default. */
  rules?: readonly Rule[];
  /**
   * A synchronous HMAC-SHA256 check for sdk-hmac-v1 and mac-json tokens (see
   * tokens/verify-hmac.ts): the CLI injects node:crypto's; without one, WebCrypto's.
   */
  hmac?: HmacSha256Check;
  /**
   * The caller hands the records over: once an exchange is decoded, its body texts are
   * dropped from the record (decode/exchange.ts `releaseBodies`, which says why). For hosts
   * that show no raw bodies (the CLI). Hazard: mutates the records passed in.
   */
  releaseBodies?: boolean;
  /**
   * Keep lean copies (decode/lean-record.ts): once an exchange is decoded, the engine holds
   * a copy without its body texts, leaving the records passed in untouched. For hosts whose
   * bodies stay in storage (the analysis worker reads them on demand).
   */
  lean?: boolean;
  /** Subjects checked between two looks at the clock in a budgeted step (default 128). */
  checkChunk?: number;
  /** The clock budgeted steps read (ms); performance.now by default, a test's own otherwise. */
  now?: () => number;
}

/** The lint options an engine with these options runs its rules with. */
export function lintOptionsOf(opts: EngineOptions): LintOptions {
  return {
    maxRounds: opts.maxRounds ?? DEFAULT_LINT_OPTIONS.maxRounds,
    ttlBoundSeconds: opts.ttlBoundSeconds ?? DEFAULT_LINT_OPTIONS.ttlBoundSeconds,
    keysGiven: opts.keysGiven ?? opts.keysFor !== undefined,
  };
}
