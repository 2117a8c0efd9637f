// What a lint rule is. One rule per file under rules/, listed once in rules/index.ts.
// A rule is pure: it reads the analysis through LintContext and reports findings.
import type {
  Conversation, DecodedExchange, ExchangeRecord, RpcMessage, Round, Severity, TokenReading,
} from '../protocol.js';

export interface LintOptions {
  /** Round limit for mrtr/too-many-rounds (default 8). */
  maxRounds: number;
  /** Bound in seconds for state/long-ttl (default 900). */
  ttlBoundSeconds: number;
  /** True when at least one verification key was configured. */
  keysGiven: boolean;
}

export const DEFAULT_LINT_OPTIONS: LintOptions = { maxRounds: 8, ttlBoundSeconds: 900, keysGiven: false };

/** Who issued a requestState token: the conversation and the round whose answer carried it. */
export interface StateOrigin {
  conversation: Conversation;
  round: number;
}

/** A round that sent (echoed) a requestState token, and its conversation. */
export interface Presentation {
  round: Round;
  conversation: Conversation;
}

/** Read-only view of one analysed capture, handed to every rule. */
export interface LintContext {
  readonly options: LintOptions;
  readonly conversations: readonly Conversation[];
  record(seq: number): ExchangeRecord;
  decoded(seq: number): DecodedExchange;
  /** The request message of a round. */
  request(round: Round): RpcMessage;
  /** The answer message of a round, when it has one. */
  answer(round: Round): RpcMessage | undefined;
  /** The decoded reading of a token seen anywhere in the capture. */
  token(token: string): TokenReading | undefined;
  /** Conversations that claim this exchange. */
  conversationsOf(seq: number): readonly Conversation[];
  /** Every place a token was issued by an answer (usually one). */
  issuedBy(token: string): readonly StateOrigin[];
  /** The tool definition from the latest `tools/list` result seen before `seq`, if any. */
  toolDefinition(name: string, beforeSeq: number): Record<string, unknown> | undefined;
  /** Every round that sent this token, in conversation order, then round order. */
  presentations(token: string): readonly Presentation[];
  /**
   * A value built once per context and kept by it, under a key the caller owns (a rule's
   * index over the whole capture): rules keep no state of their own, so re-checking only
   * some subjects sees the same thing as checking them all. Hazard: the value must depend
   * only on what the context shows, never on which subjects were checked before.
   */
  memo<T>(key: object, build: () => T): T;
}

export interface FindingDraft {
  exchange: number;
  message: string;
  /** Defaults to the conversation being checked (conversation rules) or null. */
  conversation?: string | null;
  /** Overrides the rule's severity (e.g. response-missing when the chain then ends). */
  severity?: Severity;
}

export type Report = (finding: FindingDraft) => void;

interface RuleBase {
  /** Stable public id from shared/spec/lint-rules.md; never renamed. */
  id: string;
  tier: 1 | 2;
  severity: Severity;
  /** Spec clause, as in lint-rules.md (e.g. "mrtr:254"). */
  clause: string;
  /** One line: what the rule checks. */
  title: string;
  /** The transport the rule is about, when only one: HTTP rules never fire on stdio traffic
   *  (which has no headers or statuses), stdio rules never on HTTP. Absent: both. */
  transport?: 'http' | 'stdio';
  /** Set on a rule that judges what the client did (the ids, tokens, answers and headers it
   *  sends). Such a rule never reports on a Console experiment (a fork, edit, re-send or
   *  tamper test: thread/experiments.ts): that request is the developer's test, not the
   *  client's behaviour. Absent: the rule judges the server, or the traffic as such. */
  about?: 'client';
}

/** Checks one conversation (a chain of rounds). */
export interface ConversationRule extends RuleBase {
  scope: 'conversation';
  check(conversation: Conversation, ctx: LintContext, report: Report): void;
}

/** Checks one exchange (headers, content types, stray messages). */
export interface ExchangeRule extends RuleBase {
  scope: 'exchange';
  check(exchange: DecodedExchange, record: ExchangeRecord, ctx: LintContext, report: Report): void;
}

export type Rule = ConversationRule | ExchangeRule;
