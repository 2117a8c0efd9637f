// Types that cross a boundary: service worker → IndexedDB → analysis worker → page, and
// the CLI's output. Plain, structured-cloneable data only. Bump PROTOCOL_VERSION when a
// shape here changes incompatibly; the page and the workers compare it at start.

export const PROTOCOL_VERSION = 1;

/** One HTTP header as sent or received; order and case are kept as captured. */
export interface HeaderPair {
  name: string;
  value: string;
}

/** One server-sent event, with the time (epoch ms) its terminating blank line arrived. */
export interface SseEventRecord {
  t: number;
  /** The `event:` field, when present. */
  event?: string;
  data: string;
  id?: string;
  retry?: number;
}

export type ExchangeSource = 'sw' | 'relay' | 'import' | 'console';

/** Where an exchange is in its life. Only `complete` and `aborted`/`failed` are final. */
export type ExchangeState = 'pending' | 'streaming' | 'complete' | 'aborted' | 'failed';

/** How much of a body was recorded: the relay keeps the start of a large one only. */
export interface BodyTruncation {
  /** Bytes of the body kept in the record. */
  recordedBytes: number;
  /** Bytes of the whole body as it passed through. */
  totalBytes: number;
}

/**
 * The raw exchange: the source of truth. One per HTTP exchange, append-only; every
 * message, conversation, token reading and finding is derived from these and can be
 * rebuilt at any time.
 */
export interface ExchangeRecord {
  /** Record schema version (this file's PROTOCOL_VERSION when written). */
  v: number;
  /** Unique id (random for live capture, derived from position for imports). */
  id: string;
  /** 0-based position in its capture (HAR entry order, JSONL line order, arrival order). */
  seq: number;
  /** The capture session this exchange belongs to. */
  session?: string;
  source: ExchangeSource;
  /**
   * Who sent it, when known: a connection or client identity that is stable across one
   * client's requests (relay connection, page client id, HAR `connection`). Used by
   * threading to keep two clients' chains apart.
   */
  client?: string;
  /** Epoch ms when the request was sent. */
  startedAt: number;
  request: {
    method: string;
    url: string;
    headers: HeaderPair[];
    /** Body as text (UTF-8 decoded; invalid bytes become U+FFFD). */
    body?: string;
    /** Set when only the start of a large body was recorded; the target got it all. */
    truncated?: BodyTruncation;
  };
  response?: {
    status: number;
    statusText?: string;
    headers: HeaderPair[];
    /** Epoch ms when the response head arrived. */
    receivedAt: number;
    /** Whole body text, for anything that is not an event stream. */
    body?: string;
    /** For `text/event-stream`: the events in arrival order. */
    events?: SseEventRecord[];
    /** For an event stream cut mid-event: the unterminated tail, kept verbatim. */
    tail?: string;
    /** Set when only the start of a large body (or stream) was recorded; the client got it all. */
    truncated?: BodyTruncation;
  };
  /** Epoch ms when the exchange ended (body complete, aborted or failed). */
  endedAt?: number;
  state: ExchangeState;
  /** Why it aborted or failed, when it did. */
  error?: string;
  /**
   * Set when the relay refused the request itself (wrong token, unknown target, bad path):
   * the reason it answered. Nothing reached a server; state is 'failed'. Clients often show
   * their own message instead of the relay's, so the page shows this one.
   */
  refused?: string;
  /** For a re-sent or edited request: the id of the exchange it was made from. */
  derivedFrom?: string;
  /** For an exchange the Console made: which of its actions sent it (see ConsoleOrigin). */
  origin?: ConsoleOrigin;
  /** Set when the exchange travelled over a stdio server's pipes, not HTTP (see StdioInfo). */
  stdio?: StdioInfo;
}

/**
 * What made a Console exchange. `discovery`: the catalog calls on connect; `call`: the first
 * request of a step-through; `step`: a retry answered there; `edit`: a retry or a captured
 * request edited by hand before sending; `resend`: a captured request sent again unchanged;
 * `fork`: an earlier retry sent again with other answers; `tamper`: a tamper test; `replay`:
 * a session replay; `check`: the calls `check` (CLI or the page's "Check this server") drives
 * as a plain client (its probes are `tamper`). Exchanges sent together by one action (a
 * connect, "Run all tamper tests", a replay, a check) share a `run` id, so views can show them
 * as one group.
 */
export type OriginKind = 'discovery' | 'call' | 'step' | 'edit' | 'resend' | 'fork' | 'tamper' | 'replay' | 'check';

/** Every OriginKind, in the order views list them. */
export const ORIGIN_KINDS: readonly OriginKind[] = ['discovery', 'call', 'step', 'edit', 'resend', 'fork', 'tamper', 'replay', 'check'];

export interface ConsoleOrigin {
  kind: OriginKind;
  /** Shared by the exchanges one action sent together. */
  run?: string;
}

/**
 * The stdio transport marker. A stdio exchange is mapped onto the HTTP-shaped record so
 * one decoder serves both: `request.method` is POST for a line the client wrote and GET for
 * server lines that no open client request could carry (like the legacy GET stream);
 * `request.url` is `stdio://<name>`; there are no headers; `response.status` is 200 and
 * `response.events` holds the server's lines (one event per line, `data` = the line).
 * Rules about HTTP itself never apply to these (Rule.transport).
 */
export interface StdioInfo {
  /** The wrapped server's name (the URL's host part). */
  name: string;
  /** How the server process ended, on the records it left unanswered and on its last record. */
  exit?: { code: number | null; signal: string | null; stderrTail: string };
}

// ---------------------------------------------------------------------------------
// Derived: JSON-RPC messages decoded from exchanges.

export type JsonRpcId = string | number | null;

/** Which way a message went and on which stream. */
export type MessageDirection = 'client-to-server' | 'server-to-client';
export type MessageStream = 'post-body' | 'post-json' | 'post-sse' | 'get-sse';

export type MessageKind = 'request' | 'notification' | 'result' | 'error' | 'invalid';

/** One JSON-RPC message found in an exchange. */
export interface RpcMessage {
  /** seq of the exchange it came from. */
  exchange: number;
  /** Position of this message within its exchange (request body messages first). */
  index: number;
  direction: MessageDirection;
  stream: MessageStream;
  /** Epoch ms it was sent (request) or arrived (response, event). */
  t: number;
  kind: MessageKind;
  /** Present for requests, results and errors (null allowed for errors). */
  id?: JsonRpcId;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  /** Why this is `invalid`, when it is. */
  problem?: string;
  /** True when this message was one element of a JSON array (batch). */
  batched?: boolean;
}

/** A body that could not be read as JSON-RPC: where and why. Expected data, not a throw. */
export interface BodyProblem {
  exchange: number;
  part: 'request' | 'response';
  message: string;
  /** Character offset or SSE event index, when known. */
  at?: number;
}

export type Era = '2026-07-28' | 'legacy';

/** Everything decoded from one exchange. */
export interface DecodedExchange {
  seq: number;
  era: Era;
  /** Messages from the request body (client to server). */
  sent: RpcMessage[];
  /** Messages from the response (JSON body or event stream), in arrival order. */
  received: RpcMessage[];
  problems: BodyProblem[];
  /** The response had no body at all (no text, no events, no tail); false when no response. */
  responseEmpty: boolean;
}

// ---------------------------------------------------------------------------------
// Derived: token readings.

export type TokenFormat = 'sdk-hmac-v1' | 'jws' | 'jwe' | 'mac-json' | 'base64-json' | 'json' | 'opaque';

/** What the inspector could read of one requestState token. */
export interface TokenReading {
  format: TokenFormat;
  /**
   * true: a configured key verified it; false: keys were given and none verified it (or it
   * has a MAC that no key matched); null: no key given, or the format carries no MAC.
   */
  verified: boolean | null;
  /** Which configured key verified it (its index in the key list), when one did. */
  keyIndex?: number;
  /** Why verification failed, when it did (e.g. "MAC mismatch", "unsupported alg none"). */
  verifyError?: string;
  /** The token carries a MAC, signature or AEAD tag that the inspector recognises. */
  protected: boolean;
  /** Decoded header (JWS/JWE), when there is one. */
  header?: Record<string, unknown>;
  /** The readable payload (decrypted for JWE when a key works), or null when unreadable. */
  payload: unknown;
  /** Expiry as ISO-8601, when the token carries one. */
  expiresAt: string | null;
  /** Issue time as ISO-8601, when the token carries one. */
  issuedAt: string | null;
  /** SDK codec bind tag (`b`), when present. */
  bindTag?: string;
  /** The payload names the method, or a digest of the request's salient params. */
  requestBound: boolean;
  /** The payload names a principal (sub, user, principal, …) other than a bare session id. */
  principalBound: boolean;
  /** Short human note: "opaque handle: the state lives on the server", decode failures… */
  note?: string;
}

// ---------------------------------------------------------------------------------
// Derived: conversations (threaded rounds).

export type RoundOutcome = 'input_required' | 'complete' | 'error' | 'no-response';
export type RoundLink = null | 'state' | 'match' | 'ambiguous' | 'derived';
export type ConversationStatus = 'complete' | 'error' | 'abandoned' | 'in-progress';

/** A legacy (2025-era) server-initiated request seen inside a call, and its answer. */
export interface LegacyInteraction {
  /** seq of the exchange whose stream carried the server's request. */
  exchange: number;
  stream: MessageStream;
  id: JsonRpcId;
  method: string;
  t: number;
  /** seq of the exchange where the client POSTed its answer, when seen. */
  answeredIn?: number;
  /** Message index of the answer in that exchange. */
  answerIndex?: number;
  /** Status of the answer POST (202 expected). */
  answerStatus?: number;
}

/** One request and its answer inside a conversation. */
export interface Round {
  /** seq of the exchange that carried the request. */
  exchange: number;
  /** index of the request among that exchange's `sent` messages. */
  message: number;
  requestId: JsonRpcId;
  /** index of the answer among that exchange's `received` messages, or -1. */
  answer: number;
  outcome: RoundOutcome;
  link: RoundLink;
  /**
   * Index (in `rounds`) of the round this one continues: the round whose answer issued the
   * echoed token, or the chain's last round for a `match`. null for a first round. Rounds
   * are usually a straight line (parent = i - 1); a re-used token or a fork gives branches.
   * A `derived` round (a Console fork, edit or re-send of a round here) takes the parent of
   * the round it was made from: it is that round's sibling.
   */
  parent: number | null;
  /** Why it linked the way it did (for `ambiguous`: the candidates and why they tie). */
  linkReason?: string;
  /** For `ambiguous`: ids of the conversations it could have continued. */
  candidates?: string[];
  /** What the answer asked for: key → method. */
  inputRequests: Record<string, string> | null;
  /** Keys the request carried in `inputResponses`. */
  inputResponses: string[] | null;
  /** The token this request echoed, verbatim. */
  stateSent: string | null;
  /** The token the answer issued, verbatim. */
  stateIssued: string | null;
  /** Epoch ms: request sent, and answer received (when there is one). */
  sentAt: number;
  answeredAt: number | null;
  /** Legacy server-initiated requests that belong to this round. */
  legacy?: LegacyInteraction[];
  /** What the round is in a task's life (tasks extension), when it is part of one. */
  task?: RoundTask;
  /** The Console action that sent it (its exchange's origin kind), when the Console did. */
  origin?: OriginKind;
}

/** The steps of a task's life (tasks extension) that a round can be. */
export type TaskStep = 'create' | 'get' | 'update' | 'cancel';

/** One `tasks/get` folded into an earlier round that showed the same thing. */
export interface TaskPoll {
  exchange: number;
  message: number;
  /** index of the answer among the exchange's `received` messages, or -1. */
  answer: number;
  requestId: JsonRpcId;
  sentAt: number;
  answeredAt: number | null;
}

/** A round's part in a task: the creating call, a poll, an update or a cancel. */
export interface RoundTask {
  step: TaskStep;
  taskId: string;
  /** The status the answer reported (the creating result and tasks/get), else null. */
  status: string | null;
  /** A tasks/get answer's `inputRequests`: key → method. */
  requests?: Record<string, string>;
  /** Later polls that showed the same status and the same outstanding requests, folded
   *  into this round (in send order): the round stands for 1 + polls.length polls. */
  polls?: TaskPoll[];
}

/** A conversation that holds a task (tasks extension). */
export interface ConversationTask {
  taskId: string;
  /** Index of the round whose answer created the task; null when the capture has only
   *  the task's polls, updates or cancels (it began after the task was created). */
  created: number | null;
  /** The latest status reported (by the creating result or a poll); null when none was. */
  status: string | null;
}

/** One original request plus its retries. */
export interface Conversation {
  id: string;
  method: string;
  /** params.name or params.uri, when the method has one. */
  name: string | null;
  era: Era;
  /** Client identity used for threading (connection or clientInfo), when known. */
  client: string | null;
  /** Every exchange seq this conversation claims, ascending. */
  exchanges: number[];
  status: ConversationStatus;
  rounds: Round[];
  /** When this conversation re-presents a token of a conversation that already ended. */
  replayOf?: string;
  /** The task this conversation holds, joined by taskId (tasks extension). */
  task?: ConversationTask;
  /** The Console run its first exchange belongs to (ConsoleOrigin.run), when it has one. */
  run?: string;
}

// ---------------------------------------------------------------------------------
// Derived: findings.

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  rule: string;
  severity: Severity;
  /** seq of the exchange the finding is about. */
  exchange: number;
  /** The conversation it is about, or null for exchange-level findings outside any. */
  conversation: string | null;
  message: string;
  clause: string;
}

/**
 * Why a call into the analysis worker failed: storage's kinds (`quota`, `unavailable`,
 * `blocked`, `not-found` for a record no longer stored, `unknown`), or `invalid` for a
 * request the worker cannot act on (an unreadable key, a draft that is not JSON-RPC, a
 * tamper subject with no token). Expected failures are data; only bugs throw.
 */
export type ErrorKind = 'quota' | 'unavailable' | 'blocked' | 'not-found' | 'unknown' | 'invalid';

/** A failure the page shows: `kind` to branch on, `message` saying cause and fix. */
export interface ErrorInfo {
  kind: ErrorKind;
  message: string;
}

/**
 * The answer of every fallible call into the analysis worker. `E` is `ErrorInfo` unless the
 * page needs more structure (an import refusal says where, what was skipped, what is readable).
 */
export type Answer<T, E = ErrorInfo> = { ok: true; value: T } | { ok: false; error: E };
