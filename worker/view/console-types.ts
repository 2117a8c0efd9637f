// What the Console's worker side answers the page with: the server catalog, the
// step-through view (questions already turned into form models and drafts), tamper and
// replay views. Plain, structured-cloneable data; the page imports these as types only.
import type {
  CapabilityToggles, DraftChange, DraftError, FieldValue, FormModel, InputKind, ReplayOutcome, ReplaySkip, RoundReading, StepperStatus,
  TamperReport, TamperResult, TamperTest,
} from '../console/index.js';

export type { CapabilityToggles, FieldValue, FormModel, DraftChange, DraftError, TamperReport, TamperResult, TamperTest, InputKind };

/** Who the Console says it is, and what it says it can do, per request. */
export interface ClientSetup {
  toggles: CapabilityToggles;
  clientInfo: { name: string; version: string };
}

/** One tool, prompt, resource or template of the server. */
export interface CatalogTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  /** The tool's annotations (readOnlyHint, destructiveHint…), for check's safety rules. */
  annotations?: Record<string, unknown>;
  /** The argument form generated from inputSchema (null when it cannot be a flat form). */
  form: FormModel | null;
  values: Record<string, FieldValue>;
}
export interface CatalogPrompt { name: string; description?: string; arguments: { name: string; required: boolean; description?: string }[] }
export interface CatalogResource { uri: string; name?: string; description?: string }
export interface CatalogTemplate { uriTemplate: string; name?: string }

/** What `server/discover` and the lists said. A failed list is a problem, not a throw. */
export interface ServerCatalog {
  url: string;
  discover: Record<string, unknown> | null;
  serverInfo: string | null;
  supportedVersions: string[];
  tools: CatalogTool[];
  prompts: CatalogPrompt[];
  resources: CatalogResource[];
  templates: CatalogTemplate[];
  problems: string[];
}

/** The call the Console starts a step-through with. */
export interface CallSpec {
  url: string;
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  params: Record<string, unknown>;
  setup: ClientSetup;
  inputSchema?: unknown;
}

/** One input request, ready to render: a form model, a URL, or a JSON draft to edit. */
export interface QuestionView {
  key: string;
  kind: InputKind;
  method: string;
  message: string | null;
  form?: FormModel;
  values?: Record<string, FieldValue>;
  url?: string;
  /** Pre-filled JSON answer (sampling, roots, unknown kinds). */
  draft?: string;
  /** The answer given so far (this round), when there is one. */
  answer?: Record<string, unknown>;
  /** Auto mode remembered an answer but not these fields: they look secret, so they were not stored. */
  notRemembered?: string[];
}

/** One round of the step-through, as the page lists it. */
export interface StepRoundView {
  index: number;
  parent: number | null;
  depth: number;
  id: string | number | null;
  kind: RoundReading['kind'];
  summary: string;
  edited: boolean;
  forkOf?: number;
  recordId: string;
  requestBody: string;
  answer: string;
  /** The round's answer issued a requestState (a tamper subject). */
  issuedToken: boolean;
  /** This round is a retry (can be forked). */
  retry: boolean;
}

/** The retry about to go out. */
export interface PreviewView {
  text: string;
  original: string;
  edited: boolean;
  error?: DraftError;
  changes: DraftChange[];
}

/** The step-through, after every command. */
export interface StepView {
  status: StepperStatus;
  url: string;
  rounds: StepRoundView[];
  current: number | null;
  questions: QuestionView[];
  pending: string[];
  preview: PreviewView | null;
  branches: { leaf: number; path: number[]; status: RoundReading['kind'] }[];
  auto: boolean;
  message?: string;
  /** The session the Console's sends were filed in (the capture session), with derivedFrom links. */
  session: string | null;
}

/** One tamper test, planned or run. `waiting`: a scheduled re-send is waiting in the worker. */
export interface TamperTestView {
  test: TamperTest;
  label: string;
  state: 'ready' | 'running' | 'waiting' | 'done' | 'scheduled' | 'not-run';
  verdict?: TamperResult['verdict'];
  rule?: string;
  /** Accepted, but answered exactly as the genuine token was (a warning, not a breach shown). */
  unchanged?: true;
  detail: string;
  sent?: { body: string }[];
  answers?: { status: number; summary: string }[];
  /** For after-expiry: when the token expires and when the re-send would go (epoch ms). */
  expiresAt?: string;
  sendAt?: number;
}

export interface TamperView {
  subject: string;
  url: string;
  tests: TamperTestView[];
  report: TamperReport | null;
  session: string | null;
}

/** A replay, as the page shows it; its traffic is a capture session of its own. */
/** One change of a replayed answer, with the values themselves when they are objects or arrays (drawn as trees). */
export type ReplayChangeView = ReplayOutcome['changes'][number] & { beforeValue?: unknown; afterValue?: unknown };

/** A replayed conversation's outcome as the page shows it. */
export type ReplayOutcomeView = Omit<ReplayOutcome, 'changes'> & { changes: ReplayChangeView[] };

export interface ReplayView {
  target: string;
  ignore: string[];
  outcomes: ReplayOutcomeView[];
  skipped: ReplaySkip[];
  summary: { same: number; different: number; stopped: number; failed: number; skipped: number };
  unreachable?: { url: string; message: string };
  /** Captured credential headers held back (the target is another origin), and the notice saying so. */
  credentialsWithheld: string[];
  credentialsNotice?: string;
  session: { id: string; name: string } | null;
  exchanges: number;
}

/** The editable draft of a captured request: the text to edit (a fresh id), the captured text, and both ids. */
export interface ResendDraftView {
  text: string;
  original: string;
  url: string;
  from: string;
  ids: { captured: string | number | null; fresh: string | number };
}

/** What an edit-and-resend sent and got back. */
export interface ResendView {
  status: number;
  summary: string;
  answer: string;
  recordId: string;
  derivedFrom: string;
  session: string;
  /** The draft with the next fresh JSON-RPC id, when this one went with the fresh id offered. */
  next?: { id: string | number; text: string };
}

/** A task the Console drives (tasks extension), after every command. */
export interface TaskView {
  /** `rounds`: the call is still in its MRTR rounds (questions answered with Submit, sent as the call's retry). */
  phase: 'idle' | 'sending' | 'rounds' | 'running' | 'done' | 'not-task';
  /** MRTR rounds the call went through before the task was created. */
  rounds: number;
  url: string;
  taskId: string | null;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' | null;
  statusMessage?: string;
  pollIntervalMs: number | null;
  /** Status changes in order, each with the polls that reported it. */
  timeline: { status: string; polls: number }[];
  polls: number;
  /** Outstanding requests, as question cards (an answer given but not sent yet is on the card). */
  questions: QuestionView[];
  /** Keys with an answer waiting for Submit. */
  staged: string[];
  /** Keys answered over the task's lifetime, with the answer sent (JSON). */
  answered: { key: string; answer: string }[];
  /** Keys the server re-issued for a different request after their answer was delivered. */
  reusedKeys: string[];
  result?: string;
  error?: string;
  sends: { kind: string; id: string | number | null; method: string; summary: string; recordId: string }[];
  keyTests: { kind: 'twice' | 'unknown' | 'reuse'; label: string; key: string; verdict: string; detail: string; sent?: Record<string, unknown> }[];
  message?: string;
  session: string | null;
}
