// What the analysis worker answers the devtools page with: list rows (summaries), and
// details fetched by id. Plain, structured-cloneable data; the page imports these as
// types only and never parses traffic itself.
import type { ClauseText } from '../lint/clause-text.js';
import type { RoundDiff } from '../diff/round-diff.js';
import type { Answer, ErrorInfo } from '../protocol.js';
import type {
  ConversationStatus, Era, ExchangeState, Finding, JsonRpcId, MessageStream, OriginKind, RoundLink, RoundOutcome, Severity, TaskStep, TokenReading,
} from '../protocol.js';

export type { OriginKind } from '../protocol.js';

export interface FindingCounts {
  error: number;
  warning: number;
  info: number;
}

/** Why a round was linked `ambiguous`: the threader's reason and the tied candidates' ids. */
export interface Ambiguity {
  reason: string | null;
  candidates: string[];
}

/** One row of the conversation list. */
export interface ConversationSummary {
  id: string;
  method: string;
  name: string | null;
  era: Era;
  /** The call's own rounds (the Console's experiments in it are `experiments`). */
  rounds: number;
  status: ConversationStatus;
  findings: FindingCounts;
  /** seq of its first exchange, for stable ordering. */
  firstSeq: number;
  /** Epoch ms of the first request. */
  startedAt: number;
  /** First request to last answer, in ms (call-duration.ts); null while nothing answered. */
  durationMs: number | null;
  /** Some round sent or received a requestState. */
  hasState: boolean;
  /** Some round was linked `ambiguous`. */
  ambiguous: boolean;
  /** For an ambiguous round: why it tied and the conversations it could have continued. */
  ambiguity?: Ambiguity;
  /** HTTP status of the last exchange, when it has one. */
  httpStatus: number | null;
  /** The Console action that sent its first round, when the Console did (the row's label). */
  origin?: OriginKind;
  /** The Console run it belongs to (a connect, a tamper run, a replay): rows of one run are one group. */
  run?: string;
  /** How many branches its rounds form, when more than one (forks, edits, re-used tokens). */
  branches?: number;
  /**
   * Findings about the Console's experiments in it (forks, edits, re-sends, tamper tests and
   * the rounds that continue them), when any: each is the server's answer to an experiment,
   * never the client's fault. Apart from `findings`, except for a conversation that is all
   * experiment (`experiment`), whose findings are these.
   */
  expected?: FindingCounts;
  /** The conversation is a Console experiment of its own (no round of a client's call in it). */
  experiment?: true;
  /** Rounds the Console's experiments added, apart from `rounds` (the call's own), when any. */
  experiments?: number;
  /** The call runs as a task (the tasks extension): the list marks it. */
  task?: true;
}

/** What the status bar counts (over the shown view). */
export interface ListStats {
  conversations: number;
  exchanges: number;
  errors: number;
  warnings: number;
  /** The whole session, before filtering. */
  totalConversations: number;
  /**
   * Errors and warnings about the Console's experiments (forks, edits, re-sends, tamper
   * tests): the server's answers to the developer's tests (a tampered request is meant to be
   * refused), counted here and not in errors/warnings.
   */
  expected: number;
  filtered: boolean;
  /**
   * Conversations and exchanges whose checks still trail (a large batch is listed first and
   * checked next): the counts above grow until this is 0.
   */
  checking: number;
}

export type FilterState = { ok: true } | { ok: false; message: string; at: number } | { ok: 'unavailable'; message: string };

export interface ConversationList {
  items: ConversationSummary[];
  stats: ListStats;
  filter: FilterState;
}

/**
 * The list since the page's last copy: the rows that changed (added or different) and the
 * ids gone, with fresh counts; or the whole list when the worker cannot say what changed
 * (another filter, a copy too old, a filter that is not blank). `epoch` names this
 * version of the list: pass it back as `since` next time.
 */
export type ListUpdate =
  | { kind: 'whole'; epoch: number; list: ConversationList }
  | { kind: 'delta'; epoch: number; since: number; changed: ConversationSummary[]; removed: string[]; stats: ListStats; filter: FilterState };

/** One input request of an `input_required` answer, whole (for cards). */
export interface InputRequestView {
  key: string;
  method: string;
  params: Record<string, unknown> | null;
  /** The value this key got in the next round's `inputResponses`, when it was answered. */
  answer?: unknown;
}

export interface TokenView {
  /** Which server minted it: origin + path of the exchange. */
  server: string;
  /** A key is configured for that server. */
  keyConfigured: boolean;
  reading: TokenReading;
  /** The token text, cut to a readable length (whole when short). */
  text: string;
  length: number;
}

export interface LegacyView {
  method: string;
  id: JsonRpcId;
  t: number;
  stream: MessageStream;
  params: Record<string, unknown> | null;
  /** Seq of the exchange carrying the client's answer, and its status. */
  answeredIn?: number;
  /** Id of that exchange (for a link that opens it) and when it started. */
  answeredInId?: string;
  answeredAt?: number;
  answerStatus?: number;
  answer?: unknown;
}

/** One round of the thread view. */
export interface RoundView {
  index: number;
  /** seq and id of the exchange that carried it. */
  exchange: number;
  exchangeId: string;
  requestId: JsonRpcId;
  outcome: RoundOutcome;
  link: RoundLink;
  /** How it was linked, in words (view/round-link.ts). */
  linkText: string;
  linkReason?: string;
  candidates?: string[];
  parent: number | null;
  sentAt: number;
  answeredAt: number | null;
  /** ms between the parent round's answer and this request; null for a first round. */
  gapMs: number | null;
  httpStatus: number | null;
  params: Record<string, unknown> | null;
  inputResponses: Record<string, unknown> | null;
  inputRequests: InputRequestView[] | null;
  stateSent: TokenView | null;
  stateIssued: TokenView | null;
  /** The final result (complete), or the JSON-RPC error. */
  result: Record<string, unknown> | null;
  error: { code: number; message: string; data?: unknown } | null;
  legacy: LegacyView[];
  diff: RoundDiff | null;
  /** Findings about this round's exchange. */
  findings: number;
  /** Its part in a task: the step, the status its answer reported, how many polls it stands for. */
  task?: { step: TaskStep; status: string | null; polls: number };
  /** The Console action that sent it, when the Console did. */
  origin?: OriginKind;
  /** Part of a Console experiment (a fork, edit, re-send or tamper test, or a round that
   *  continues one) in a call it joined: judged as the experiment's result, not the call's. */
  experiment?: true;
}

/**
 * One branch of a conversation's rounds: the path from its first round to a leaf (a round
 * no other round continues). `from` is the round it leaves the branch before it at (null
 * for the first branch); `depth` is how many branches it is nested in, for drawing.
 */
export interface BranchView {
  leaf: number;
  path: number[];
  from: number | null;
  depth: number;
  /** The origin of the branch's first round of its own (fork, edit, re-send), when the Console made it. */
  origin?: OriginKind;
}

/** One stretch of a task's status timeline: a status and the polls that reported it in a row. */
export interface TaskStatusView {
  status: string;
  /** When it was first reported (answer time, else send time). */
  at: number;
  /** How many answers in a row reported it (the creating result counts as one). */
  reports: number;
  exchange: number;
}

/** An input key of a task, with the request's method and where it was answered. */
export interface TaskKeyView {
  key: string;
  method: string;
  /** Exchange seq of the tasks/update that answered it, or null while outstanding. */
  answeredIn: number | null;
}

/** The task card of a thread: a task's whole life in one place. */
export interface TaskCardView {
  taskId: string;
  /** The latest status reported; null when none was. */
  status: string | null;
  /** The capture shows the task's creation. */
  created: boolean;
  timeline: TaskStatusView[];
  /** tasks/get requests sent, and how many of them were folded into earlier rounds. */
  polls: number;
  folded: number;
  /** The pollIntervalMs the server last asked for, and the median gap between polls seen. */
  pollIntervalMs: number | null;
  observedIntervalMs: number | null;
  updates: number;
  cancelled: boolean;
  /** Keys asked for over the task's life: outstanding ones (the latest poll's, unanswered) and answered ones. */
  outstanding: TaskKeyView[];
  answered: TaskKeyView[];
  /** Some answer showed the server knows the task (its creation, or a status reported). */
  known: boolean;
  /** A completed task's result, or a failed task's `error`: never a refused request's. */
  final: { kind: 'result' | 'error'; value: unknown } | null;
  /** Requests of the task answered with a JSON-RPC error, each shown on its round. */
  refused: { exchange: number; method: string; code: number; message: string }[];
}

/** A finding with its rule's text, for the Findings tab. */
export interface FindingView extends Finding {
  title: string;
  tier: 1 | 2 | null;
}

export interface ConversationView {
  id: string;
  method: string;
  name: string | null;
  era: Era;
  status: ConversationStatus;
  client: string | null;
  replayOf?: string;
  rounds: RoundView[];
  /** First request to last answer, in ms (call-duration.ts: the list's Duration too); null while nothing answered. */
  durationMs: number | null;
  /** The rounds' branches (one for a straight chain), for drawing the branch tree. */
  branches: BranchView[];
  /** How many rounds are the call's own (its status is theirs); the rest are the Console's
   *  experiments in it (RoundView.experiment). */
  callRounds: number;
  /** The conversation is a Console experiment of its own (ConversationSummary.experiment). */
  experiment?: true;
  findings: FindingView[];
  /** The task card, for a conversation that holds a task. */
  task?: TaskCardView;
}

/** A header with MCP ones marked and checked against the body. */
export interface HeaderView {
  name: string;
  value: string;
  mcp: boolean;
  /** For MCP headers that mirror the body: does the body agree? */
  check?: { ok: boolean; message: string };
}

/** A body shown as text: JSON pretty-printed, cut at a size unless asked for all. */
export interface BodyView {
  text: string;
  /** Characters in the whole body. */
  length: number;
  truncated: boolean;
  json: boolean;
  /** The parsed body, when it is JSON and shown whole (drawn as a tree by the page). */
  value?: unknown;
}

export interface EventView {
  t: number;
  /** ms since the response head arrived. */
  sinceHead: number;
  event?: string;
  id?: string;
  data: BodyView;
}

export interface TimingView {
  startedAt: number;
  receivedAt: number | null;
  endedAt: number | null;
  /** Request sent → response head. */
  waitMs: number | null;
  /** Response head → end of body. */
  receiveMs: number | null;
  totalMs: number | null;
}

export interface ExchangeView {
  id: string;
  seq: number;
  url: string;
  httpMethod: string;
  status: number | null;
  statusText: string | null;
  state: ExchangeState;
  error: string | null;
  era: Era;
  source: string;
  requestHeaders: HeaderView[];
  responseHeaders: HeaderView[];
  request: BodyView | null;
  response: BodyView | null;
  events: EventView[] | null;
  tail: string | null;
  problems: { part: string; message: string; at?: number }[];
  timing: TimingView;
}

export interface RuleInfo {
  id: string;
  severity: Severity;
  clause: string;
  title: string;
  tier: 1 | 2;
  /** The spec digest's lines behind the clause, and links to the cited lines of the spec. */
  clauseText: ClauseText;
}

export interface SessionInfo {
  id: string;
  name: string;
  createdAt: number;
  /** The tap records into this one. */
  capturing: boolean;
}

/** A file read into a new session; `cancelled` when the user stopped it and what was stored so far was kept. */
export interface Imported {
  session: SessionInfo;
  count: number;
  skipped: { where: string; message: string }[];
  notes: string[];
  cancelled?: true;
}

/**
 * A file refused (`refused`): where it went wrong, what was skipped, and how many entries are
 * readable, so the page can ask "import the readable part?"; or an import cancelled before
 * anything was stored (`cancelled`).
 */
export interface ImportRefusal {
  kind: 'refused' | 'cancelled';
  message: string;
  where: string;
  skipped: { where: string; message: string }[];
  readable: number | null;
}

/** An import's answer: a refusal of the file, or storage's failure. */
export type ImportAnswer = Answer<Imported, ImportRefusal | ErrorInfo>;

/** A key that was not (fully) taken: unreadable (`applied` false), or set for this visit but not remembered. */
export interface KeyError extends ErrorInfo {
  /** Whether the key is in use now. */
  applied: boolean;
  keys: KeyInfo[];
}

export interface KeyInfo {
  server: string;
  remembered: boolean;
  /** Set by the app itself (the demo server), not by the user. */
  builtIn: boolean;
}

export type { Answer, ErrorInfo, ErrorKind } from '../protocol.js';
