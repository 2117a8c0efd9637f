// Shapes of `check`: what it is told, what each probe concluded, and the whole report.
// Plain, structured-cloneable data, so the page's worker can run the same engine.
import type { ExchangeRecord } from '../protocol.js';

/** A probe's verdict. `warning`: a SHOULD was not met; `failed`: a MUST (or the call itself) broke. */
export type ProbeVerdict = 'passed' | 'failed' | 'warning' | 'not-applicable';

/** The probes, in the order they run on a call. */
export type ProbeId =
  | 'drive' | 'decline' | 'cancel' | 'task'
  | 'token-modified' | 'token-truncated' | 'token-other-tool' | 'token-swapped' | 'token-dropped'
  | 'token-parallel-reuse' | 'token-expired' | 'replay-after-complete'
  | 'responses-missing' | 'responses-unknown-key' | 'responses-wrong-kind'
  | 'arguments-changed' | 'retry-id';

/** One probe on one call: what the spec expects, what happened, and the clause it rests on. */
export interface ProbeResult {
  probe: ProbeId;
  /** The call's target: `tools/call name`, `prompts/get name`, `resources/read uri`. */
  target: string;
  verdict: ProbeVerdict;
  /** The clause id of ../spec (M11…) and its source lines. */
  clause: string;
  expected: string;
  detail: string;
  /** The origin run the probe's exchanges carry in the saved capture. */
  run?: string;
  /** The record id of the probe's first exchange (the page selects its conversation by it). */
  exchange?: string;
}

/** A target the check skipped, and why (a destructive tool, a --skip glob, the budget). */
export interface Skipped {
  target: string;
  reason: string;
}

/** How the check is run. */
export interface CheckOptions {
  url: string;
  /** Globs over tool/prompt/resource names: only these (a named tool runs even if destructive). */
  tools?: readonly string[];
  skip?: readonly string[];
  allowDestructive?: boolean;
  /** Tools checked although not marked read-only (the page's ticks), without naming them all. */
  allow?: readonly string[];
  /** Per-tool argument overrides (`--args name=JSON`). */
  args?: Record<string, Record<string, unknown>>;
  roots?: readonly { uri: string; name?: string }[];
  /** Longest wait for a token to expire, in ms (0: never wait). */
  maxWaitMs?: number;
  /** Total budget: requests sent and wall time (ms). */
  maxCalls?: number;
  maxTimeMs?: number;
  concurrency?: number;
  /** Pause before re-sending a requestState-only round (the SDK client's 250 ms by default). */
  stateOnlyDelayMs?: number;
}

/** The whole check: what was found, what was probed, what could not be, and the traffic. */
export interface CheckRun {
  target: string;
  serverInfo: string | null;
  /** Why nothing could be checked: the server was unreachable, or is not a 2026-07-28 server. */
  unchecked?: 'unreachable' | 'legacy';
  /** Notes about what could not be checked (a legacy server, a list refused, the budget). */
  notes: string[];
  probes: ProbeResult[];
  skipped: Skipped[];
  records: ExchangeRecord[];
  calls: number;
  /** Wall time of the check, for the report (never asserted on). */
  elapsedMs: number;
  summary: Record<ProbeVerdict, number>;
}
