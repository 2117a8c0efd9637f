// Session replay: re-run captured conversations against a target and diff each final
// answer with the recording. Fresh ids; each new requestState from the target echoed (the
// stepper's retries); the recorded answers re-used per round by key, falling back to kind
// and position when the target renamed its keys. The replay's own traffic comes back as
// console records derived from the recorded exchanges: a capture session of its own.
//
// Hazard: a capture holds the recording's credentials (Authorization, API keys). Sent to a
// target of another origin they would hand those secrets to whoever runs it, so they go only
// to the recording's own origin unless the caller opts in (`sendCredentials`); what was
// held back is reported, since a server that needs them will answer differently.
import type { Conversation, ExchangeRecord, JsonRpcId, Round } from '../protocol.js';
import type { Analysis } from '../analysis.js';
import { decodeExchange } from '../decode/exchange.js';
import { asObject, own } from '../decode/meta.js';
import { isSensitiveHeader } from '../capture/sanitize.js';
import { saveAnswers } from './answers.js';
import { answerMessage, builtFromRecord, newRunId } from './exchange.js';
import { diffResults, DEFAULT_IGNORE, type JsonChange } from './result-diff.js';
import { createStepper } from './stepper.js';
import type { BuiltRequest, InputRequest, SavedAnswer, Transport } from './types.js';

/** One conversation to replay, everything taken from the recording. */
export interface ReplayItem {
  conversation: string;
  method: string;
  name: string | null;
  first: BuiltRequest;
  /** The origin the recording sent its first request to; null when its URL cannot be read. */
  origin: string | null;
  /** answers[k]: what the recording sent to the questions of its round k. */
  answers: SavedAnswer[][];
  recordedRounds: number;
  /** The recorded final JSON-RPC response (result or error), or null when none came. */
  recordedFinal: Record<string, unknown> | null;
  /** Recorded exchange ids by round depth (for derivedFrom). */
  exchangeIds: string[];
}

/** A conversation left out, and why. */
export interface ReplaySkip {
  conversation: string;
  method: string;
  reason: string;
}

/** What replay will do. */
export interface ReplayPlan {
  items: ReplayItem[];
  skipped: ReplaySkip[];
}

/** What one conversation's replay found. `stopped`: the target asked something the recording never answered. */
export interface ReplayOutcome {
  conversation: string;
  method: string;
  name: string | null;
  status: 'same' | 'different' | 'stopped' | 'failed';
  rounds: number;
  recordedRounds: number;
  changes: JsonChange[];
  omitted: number;
  questions?: { key: string; kind: string }[];
  /** Answers found by kind because the target renamed a key: new key → recorded key. */
  renamed?: Record<string, string>;
  /** Captured credential headers (lower-case names) not sent: the target is of another origin than the recording. */
  credentialsWithheld?: string[];
  error?: string;
}

/** A whole replay: outcomes, the new traffic, and whether the target could be reached. */
export interface ReplayRun {
  target: string;
  ignore: string[];
  outcomes: ReplayOutcome[];
  skipped: ReplaySkip[];
  records: ExchangeRecord[];
  unreachable?: { url: string; message: string };
  /** Every captured credential header (lower-case names, first seen first) left out of some conversation's requests. */
  credentialsWithheld: string[];
  summary: { same: number; different: number; stopped: number; failed: number; skipped: number };
}

/** Plans the replay of an analysed capture (every conversation, or the ids given, in capture order). */
export function planReplay(analysis: Analysis, opts: { conversations?: readonly string[] } = {}): ReplayPlan {
  const bySeq = new Map(analysis.records.map((r) => [r.seq, r] as const));
  const wanted = opts.conversations ? new Set(opts.conversations) : null;
  const plan: ReplayPlan = { items: [], skipped: [] };
  const ordered = [...analysis.conversations].sort((a, b) => (a.rounds[0]?.sentAt ?? 0) - (b.rounds[0]?.sentAt ?? 0) || (a.exchanges[0] ?? 0) - (b.exchanges[0] ?? 0));
  for (const c of ordered) {
    if (wanted && !wanted.has(c.id)) continue;
    const skip = (reason: string) => plan.skipped.push({ conversation: c.id, method: c.method, reason });
    if (c.era !== '2026-07-28') {
      skip('a legacy (2025-era) conversation: replay speaks 2026-07-28 only');
      continue;
    }
    const path = mainLine(c);
    const firstRecord = path[0] ? bySeq.get(path[0].exchange) : undefined;
    const first = firstRecord && firstRecord.request.method.toUpperCase() === 'POST' ? builtFromRecord(firstRecord) : null;
    if (!first || first.body.id === null || first.body.id === undefined) {
      skip('not a request with an id (a notification or a stream): nothing to compare');
      continue;
    }
    const answers: SavedAnswer[][] = [];
    for (let k = 0; k + 1 < path.length; k++) {
      const asked = asObject(own(answerOf(bySeq.get(path[k].exchange), path[k]), 'inputRequests')) as Record<string, InputRequest> | undefined;
      const sent = asObject(own(requestOf(bySeq.get(path[k + 1].exchange), path[k + 1]), 'inputResponses')) ?? {};
      answers.push(saveAnswers(asked, sent));
    }
    const last = path[path.length - 1];
    const lastRecord = bySeq.get(last.exchange);
    const lastAnswer = lastRecord && last.answer >= 0 ? decodeExchange(lastRecord).received[last.answer] : undefined;
    const recordedFinal = !lastAnswer ? null : lastAnswer.kind === 'error' ? { jsonrpc: '2.0', id: lastAnswer.id, error: lastAnswer.error } : { jsonrpc: '2.0', id: lastAnswer.id, result: lastAnswer.result };
    plan.items.push({
      conversation: c.id, method: c.method, name: c.name, first, origin: originOf(firstRecord!.request.url), answers, recordedRounds: path.length, recordedFinal,
      exchangeIds: path.map((r) => bySeq.get(r.exchange)?.id ?? ''),
    });
  }
  return plan;
}

/** Options for runReplay. */
export interface ReplayOptions {
  target: string;
  send: Transport;
  ignore?: readonly string[];
  session?: string;
  stateOnlyDelayMs?: number;
  maxRounds?: number;
  /** Send captured credential headers to a target of another origin than the recording too (default: only to the same origin). */
  sendCredentials?: boolean;
}

/**
 * The headers a replay of `item` may send to `target`: all of them to the recording's own
 * origin or when opted in; otherwise none that carries a credential (isSensitiveHeader).
 * An unreadable origin on either side counts as another origin.
 */
export function replayHeaders(item: Pick<ReplayItem, 'first' | 'origin'>, target: string, sendCredentials = false): { headers: BuiltRequest['headers']; withheld: string[] } {
  const headers = item.first.headers.map((h) => ({ ...h }));
  const targetOrigin = originOf(target);
  if (sendCredentials || (item.origin !== null && item.origin === targetOrigin)) return { headers, withheld: [] };
  const withheld = [...new Set(headers.filter((h) => isSensitiveHeader(h.name)).map((h) => h.name.toLowerCase()))];
  return { headers: headers.filter((h) => !isSensitiveHeader(h.name)), withheld };
}

/** A URL's origin, or null when it is not an absolute URL with one ("null" origins included). */
export function originOf(url: string): string | null {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

/** Runs a plan against the target, one conversation after another. Stops at the first unreachable send. */
export async function runReplay(plan: ReplayPlan, opts: ReplayOptions): Promise<ReplayRun> {
  const ignore = [...(opts.ignore ?? DEFAULT_IGNORE)];
  const run: ReplayRun = { target: opts.target, ignore, outcomes: [], skipped: [...plan.skipped], records: [], credentialsWithheld: [], summary: { same: 0, different: 0, stopped: 0, failed: 0, skipped: plan.skipped.length } };
  let nextId = 0;
  // One run id for the whole replay: its exchanges are one group wherever they are shown.
  const runId = newRunId();
  for (const item of plan.items) {
    // The stepper links each send (record id, origin, and the recorded exchange the round
    // at that depth re-enacts), so a tap files it under the record the stepper makes.
    const derivedFrom = (depth: number) => item.exchangeIds[Math.min(depth, item.exchangeIds.length - 1)] || undefined;
    const stepper = createStepper({
      send: opts.send,
      origin: { kind: 'replay', run: runId },
      ids: (): JsonRpcId => ++nextId,
      auto: ({ depth }) => item.answers[depth] ?? [],
      maxRounds: opts.maxRounds ?? Math.max(10, item.recordedRounds + 2),
      seqStart: run.records.length,
      derivedFrom,
      ...(opts.stateOnlyDelayMs !== undefined ? { stateOnlyDelayMs: opts.stateOnlyDelayMs } : {}),
      ...(opts.session !== undefined ? { session: opts.session } : {}),
    });
    // Retries copy the first request's headers (buildRetry), so a credential left out here
    // is left out of every round.
    const { headers, withheld } = replayHeaders(item, opts.target, opts.sendCredentials);
    for (const name of withheld) if (!run.credentialsWithheld.includes(name)) run.credentialsWithheld.push(name);
    const first: BuiltRequest = { body: { ...item.first.body, id: ++nextId }, headers };
    const s = await stepper.start({ url: opts.target, request: first });
    run.records.push(...stepper.records());
    const lastRound = s.rounds[s.rounds.length - 1];
    const base = { conversation: item.conversation, method: item.method, name: item.name, rounds: s.rounds.length, recordedRounds: item.recordedRounds };
    const renamed: Record<string, string> = {};
    for (const r of s.rounds) for (const [k, m] of Object.entries(r.matched ?? {})) if (m.by === 'kind') renamed[k] = m.from;
    const extra = { ...(Object.keys(renamed).length > 0 ? { renamed } : {}), ...(withheld.length > 0 ? { credentialsWithheld: withheld } : {}) };
    if (lastRound.reading.kind === 'failed') {
      run.outcomes.push({ ...base, ...extra, status: 'failed', changes: [], omitted: 0, error: lastRound.reading.message });
      run.summary.failed++;
      if (lastRound.reading.status === 0) {
        run.unreachable = { url: opts.target, message: lastRound.reading.message };
        break;
      }
      continue;
    }
    const replayed = answerMessage(lastRound.reading, lastRound.id);
    const { changes, omitted } = diffResults(item.recordedFinal, replayed, { ignore });
    const questions = s.status === 'paused' && s.pending.length > 0 ? s.pending.map((q) => ({ key: q.key, kind: q.kind })) : undefined;
    const status = changes.length > 0 || omitted > 0 ? 'different' : questions ? 'stopped' : 'same';
    run.outcomes.push({ ...base, ...extra, status, changes, omitted, ...(questions ? { questions } : {}) });
    run.summary[status]++;
  }
  return run;
}

/** The conversation's main line: the path from its first round to its last (forks left aside). */
function mainLine(c: Conversation): Round[] {
  const path: Round[] = [];
  const seen = new Set<number>();
  for (let i: number | null = c.rounds.length - 1; i !== null && i >= 0 && !seen.has(i); i = c.rounds[i].parent) {
    seen.add(i);
    path.unshift(c.rounds[i]);
  }
  return path;
}

function requestOf(record: ExchangeRecord | undefined, round: Round): Record<string, unknown> | undefined {
  return record ? decodeExchange(record).sent[round.message]?.params : undefined;
}

function answerOf(record: ExchangeRecord | undefined, round: Round): Record<string, unknown> | undefined {
  return record && round.answer >= 0 ? decodeExchange(record).received[round.answer]?.result : undefined;
}
