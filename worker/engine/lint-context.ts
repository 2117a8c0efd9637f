// The read-only view of the analysis that one lint pass hands every rule (LintContext,
// lint/rule.ts), built from the engine's parts: its entries, threading, indexes, token
// readings and tool lists.
//
// Hazard: a context keeps each token's reading and each rule's memo for as long as it lives,
// so it must not outlive the state it was built on: the engine builds one per chunk of
// checks, after threading and token reads, and never keeps one across a step.
import type { Conversation, DecodedExchange, ExchangeRecord, Round, TokenReading } from '../protocol.js';
import type { LintContext, LintOptions } from '../lint/rule.js';
import type { StateOrigin } from '../thread/threader.js';
import type { ConversationIndex } from './conversation-index.js';
import { toolDefinition, type ToolList } from './tool-lists.js';

/** The records and their decodings by seq: the engine's EntryTable, or the batch's array. */
export interface EntrySource { at(seq: number): { record: ExchangeRecord; decoded: DecodedExchange } | undefined }

/** What a lint pass reads, as the engine holds it when the pass starts. */
export interface LintSources {
  options: LintOptions;
  conversations: readonly Conversation[];
  entries: EntrySource;
  index: ConversationIndex;
  toolLists: readonly ToolList[];
  /** The reading of a token for its URL (engine/token-readings.ts). */
  reading(token: string): TokenReading | undefined;
  /** Who issued a token (the threading's record). */
  issuedBy(token: string): readonly StateOrigin[];
}

/** One lint pass's view of the analysis (see the header for how long it may live). */
export function lintContext(src: LintSources): LintContext {
  const { entries, index, toolLists } = src;
  const entry = (seq: number) => {
    const e = entries.at(seq);
    if (e === undefined) throw new Error(`no exchange with seq ${seq}`);
    return e;
  };
  const memo = new Map<object, unknown>();
  // Rules ask for the same tokens' readings many times in one pass. Nothing a reading
  // depends on (threading, keys, what `readAll` read) changes while lint runs, so each
  // token's answer is kept for the pass instead of being looked up again per ask.
  const readings = new Map<string, TokenReading | undefined>();
  return {
    options: src.options,
    conversations: src.conversations,
    record: (seq) => entry(seq).record,
    decoded: (seq) => entry(seq).decoded,
    request: (round: Round) => entry(round.exchange).decoded.sent[round.message],
    answer: (round: Round) => (round.answer >= 0 ? entry(round.exchange).decoded.received[round.answer] : undefined),
    token: (t) => {
      if (readings.has(t)) return readings.get(t);
      const r = src.reading(t);
      readings.set(t, r);
      return r;
    },
    conversationsOf: (seq) => index.conversationsOf(seq) ?? [],
    issuedBy: (t) => src.issuedBy(t),
    toolDefinition: (name, beforeSeq) => toolDefinition(toolLists, name, beforeSeq),
    presentations: (t) => index.presentations(t) ?? [],
    memo: <T>(key: object, build: () => T): T => {
      if (memo.has(key)) return memo.get(key) as T;
      const v = build();
      memo.set(key, v);
      return v;
    },
  };
}
