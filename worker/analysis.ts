// The whole pipeline over a capture at once: decode → era → thread → read tokens → lint,
// by the same engine a live session keeps (engine/analysis-engine.ts). Used by the CLI.
import type { Conversation, DecodedExchange, ExchangeRecord, Finding, TokenReading } from './protocol.js';
import type { HmacSha256Check, TokenKey } from './tokens/index.js';
import type { Rule } from './lint/rule.js';
import { AnalysisEngine } from './engine/analysis-engine.js';

export interface AnalyzeOptions {
  /** Keys tried on every token (see tokens/keys.ts for the accepted syntaxes). */
  keys?: readonly TokenKey[];
  /**
   * Keys per server instead: given the URL of the exchange that issued a token (or sent
   * it, when no answer in the capture issued it), the keys to try. A token whose server
   * has no key reads as unverified (null), never as failing. Overrides `keys`.
   */
  keysFor?: (url: string) => readonly TokenKey[];
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
   * `decodeExchange(input[i])` for every i, made by the caller: the CLI decodes each record
   * as it is imported and drops its bodies at once, while they are young and cheap to
   * collect. Ignored unless it has one entry per input record.
   */
  decoded?: readonly DecodedExchange[];
}

export interface Analysis {
  /** The records analysed: the input, less the earlier copies of a repeated seq. */
  records: readonly ExchangeRecord[];
  /** Decoded exchanges, in the same order as `records`. */
  decoded: DecodedExchange[];
  conversations: Conversation[];
  /** Every distinct requestState token seen, sent or issued. */
  tokens: Map<string, TokenReading>;
  findings: Finding[];
}

/** Analyses a capture: the incremental engine (engine/analysis-engine.ts) fed every record
 *  at once. Never throws on hostile data; bad bodies become problems/findings. */
export async function analyze(input: readonly ExchangeRecord[], opts: AnalyzeOptions = {}): Promise<Analysis> {
  const given = opts.decoded !== undefined && opts.decoded.length === input.length ? opts.decoded : undefined;
  const last = lastOfEachSeq(input);
  const records = last === null ? input : input.filter((_, i) => last[i]);
  const decodedGiven = given === undefined ? undefined : last === null ? given : given.filter((_, i) => last[i]);
  const allKeys = opts.keys ?? [];
  const engine = new AnalysisEngine({
    keysFor: opts.keysFor ?? (() => allKeys),
    keysGiven: opts.keysFor !== undefined || allKeys.length > 0,
    maxRounds: opts.maxRounds,
    ttlBoundSeconds: opts.ttlBoundSeconds,
    final: opts.final ?? true,
    rules: opts.rules,
    hmac: opts.hmac,
    releaseBodies: opts.releaseBodies,
  });
  engine.put(records, decodedGiven);
  const step = await engine.step();
  const decoded = records.map((r) => engine.entry(r.seq)!.decoded);
  return { records, decoded, conversations: step.conversations, tokens: step.tokens, findings: step.findings };
}

/**
 * Hazard: one exchange can arrive twice (a live record re-sent as it progresses, a merged
 * capture), sharing a seq with its earlier copy. Threading both would give two
 * conversations the same id and claim one request twice, so the last copy of a seq wins,
 * as a JSONL line re-written for an id does. Which records to keep, in order; null when
 * there are no repeats (no copy then).
 */
function lastOfEachSeq(records: readonly ExchangeRecord[]): boolean[] | null {
  const last: number[] = [];
  let repeats = false;
  records.forEach((r, i) => {
    if (last[r.seq] !== undefined) repeats = true;
    last[r.seq] = i;
  });
  return repeats ? records.map((r, i) => last[r.seq] === i) : null;
}
