// The whole pipeline over a capture at once: decode → era → thread → read tokens → lint,
// by the same engine a live session keeps (engine/analysis-engine.ts). Used by the CLI.
import type { Conversation, DecodedExchange, ExchangeRecord, Finding, TokenReading } from './protocol.js';
import type { TokenKey } from './tokens/index.js';
import { AnalysisEngine, type EngineOptions } from './engine/analysis-engine.js';
import { lastOfEachSeq } from './engine/last-copies.js';

/** The engine's options (engine/analysis-engine.ts), less `keysGiven` (worked out here),
 *  plus what only a whole-capture run has. */
export interface AnalyzeOptions extends Omit<EngineOptions, 'keysGiven'> {
  /** Keys tried on every token (see tokens/keys.ts for the accepted syntaxes); `keysFor`
   *  overrides it. */
  keys?: readonly TokenKey[];
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
 *  at once. Never throws on hostile data; bad bodies become problems/findings. The CLI's
 *  `lint` runs engine/batch.ts instead, which gives the same analysis in one pass without
 *  the engine's bookkeeping. */
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
