// The thread view of one conversation: every round with its request, its answer's input
// requests whole (for the cards), the tokens read with that server's key, how it was
// linked, the gap since the round it continues, and a diff against that round.
import { callDuration } from './call-duration.js';
import { branchesOf } from '../thread/branches.js';
import { callRounds, experimentFlags } from '../thread/experiments.js';
import type { Analysis } from '../analysis.js';
import { diffRounds } from '../diff/round-diff.js';
import { asObject, own } from '../decode/meta.js';
import type { Conversation, DecodedExchange, ExchangeRecord, Finding, RpcMessage, TokenReading } from '../protocol.js';
import { ALL_RULES } from '../lint/rules/index.js';
import { inspectToken, readToken, type TokenKey } from '../tokens/index.js';
import type { AnalysisIndex } from './analysis-index.js';
import { taskCardView } from './task-card.js';
import { roundLinkText } from './round-link.js';
import { serverOf } from '../tokens/server-of.js';
import type { ConversationView, FindingView, InputRequestView, LegacyView, RoundView, TokenView } from './types.js';

const RULES = new Map(ALL_RULES.map((r) => [r.id, r]));
const TOKEN_TEXT_MAX = 4096;

export type { AnalysisIndex } from './analysis-index.js';

export function indexAnalysis(a: Pick<Analysis, 'records' | 'decoded' | 'findings'>): AnalysisIndex {
  const bySeq = new Map<number, { record: ExchangeRecord; decoded: DecodedExchange }>();
  a.records.forEach((r, i) => bySeq.set(r.seq, { record: r, decoded: a.decoded[i] }));
  const findingsByConversation = new Map<string, Finding[]>();
  for (const f of a.findings) {
    if (f.conversation === null) continue;
    const list = findingsByConversation.get(f.conversation);
    if (list) list.push(f);
    else findingsByConversation.set(f.conversation, [f]);
  }
  return { bySeq, findingsByConversation };
}

/** A finding with its rule's title and tier. */
export function findingView(f: Finding): FindingView {
  const r = RULES.get(f.rule);
  return { ...f, title: r?.title ?? f.rule, tier: r?.tier ?? null };
}

/** What a TokenReader needs of the worker's keyring (services/keyring.ts): the view only reads it. */
export interface KeySource {
  readonly version: number;
  has(server: string): boolean;
  keysFor(server: string): TokenKey[];
}

/** Reads tokens with the key of the server that minted them; cached per keyring version. */
export class TokenReader {
  #cache = new Map<string, Promise<TokenReading>>();
  #version = -1;
  constructor(readonly keyring: KeySource) {}

  read(server: string, token: string): Promise<TokenReading> {
    if (this.#version !== this.keyring.version) {
      this.#cache.clear();
      this.#version = this.keyring.version;
    }
    const k = `${server}\n${token}`;
    let p = this.#cache.get(k);
    if (!p) {
      const keys = this.keyring.keysFor(server);
      p = keys.length ? readToken(token, keys) : Promise.resolve(inspectToken(token));
      if (this.#cache.size > 5000) this.#cache.clear();
      this.#cache.set(k, p);
    }
    return p;
  }

  async view(server: string, token: string | null): Promise<TokenView | null> {
    if (token === null) return null;
    const reading = await this.read(server, token);
    const text = token.length > TOKEN_TEXT_MAX ? `${token.slice(0, TOKEN_TEXT_MAX)}…` : token;
    return { server, keyConfigured: this.keyring.has(server), reading, text, length: token.length };
  }
}

function inputRequestViews(answer: RpcMessage | undefined, next: Record<string, unknown> | null): InputRequestView[] | null {
  const map = asObject(own(answer?.result, 'inputRequests'));
  if (!map) return null;
  return Object.keys(map).map((key) => {
    const v = asObject(map[key]);
    const method = own(v, 'method');
    const params = asObject(own(v, 'params')) ?? null;
    const out: InputRequestView = { key, method: typeof method === 'string' ? method : '?', params };
    if (next && Object.hasOwn(next, key)) out.answer = next[key];
    return out;
  });
}

function legacyViews(c: Conversation, ri: number, index: AnalysisIndex): LegacyView[] {
  const list = c.rounds[ri].legacy ?? [];
  return list.map((l) => {
    const carrier = index.bySeq.get(l.exchange)?.decoded;
    const req = carrier?.received.find((m) => m.kind === 'request' && m.id === l.id && m.method === l.method);
    const out: LegacyView = { method: l.method, id: l.id, t: l.t, stream: l.stream, params: req?.params ?? null };
    if (l.answeredIn !== undefined) {
      out.answeredIn = l.answeredIn;
      const answering = index.bySeq.get(l.answeredIn);
      if (answering) {
        out.answeredInId = answering.record.id;
        out.answeredAt = answering.record.startedAt;
      }
      const ans = answering?.decoded.sent[l.answerIndex ?? 0];
      if (ans) out.answer = ans.result ?? ans.error ?? null;
    }
    if (l.answerStatus !== undefined) out.answerStatus = l.answerStatus;
    return out;
  });
}

/** Builds the thread view of a conversation. */
export async function conversationView(c: Conversation, index: AnalysisIndex, tokens: TokenReader): Promise<ConversationView> {
  const findings = index.findingsByConversation.get(c.id) ?? [];
  const requests: (RpcMessage | undefined)[] = c.rounds.map((r) => index.bySeq.get(r.exchange)?.decoded.sent[r.message]);
  const payloads: unknown[] = [];
  const rounds: RoundView[] = [];
  const call = callRounds(c.rounds);
  const tried = call.experiment ? null : experimentFlags(c.rounds);
  for (let i = 0; i < c.rounds.length; i++) {
    const r = c.rounds[i];
    const e = index.bySeq.get(r.exchange);
    const server = e ? serverOf(e.record.request.url) : '';
    const request = requests[i];
    const answer = r.answer >= 0 ? e?.decoded.received[r.answer] : undefined;
    const params = request?.params ?? null;
    const inputResponses = asObject(own(params ?? undefined, 'inputResponses')) ?? null;
    // The answers to this round's input requests come in the round(s) that continue it.
    const child = c.rounds.findIndex((x, j) => j > i && x.parent === i);
    const nextResponses = child >= 0 ? asObject(own(requests[child]?.params, 'inputResponses')) ?? null : null;
    const [stateSent, stateIssued] = await Promise.all([tokens.view(server, r.stateSent), tokens.view(server, r.stateIssued)]);
    payloads.push(stateSent?.reading.payload ?? null);
    const parent = r.parent;
    const parentRound = parent !== null ? c.rounds[parent] : undefined;
    rounds.push({
      index: i,
      exchange: r.exchange,
      exchangeId: e?.record.id ?? '',
      requestId: r.requestId,
      outcome: r.outcome,
      link: r.link,
      linkText: roundLinkText(r),
      ...(r.linkReason !== undefined ? { linkReason: r.linkReason } : {}),
      ...(r.candidates !== undefined ? { candidates: r.candidates } : {}),
      parent,
      sentAt: r.sentAt,
      answeredAt: r.answeredAt,
      gapMs: parentRound?.answeredAt != null ? r.sentAt - parentRound.answeredAt : null,
      httpStatus: e && !e.record.stdio ? (e.record.response?.status ?? null) : null,
      params,
      inputResponses,
      inputRequests: r.outcome === 'input_required' ? inputRequestViews(answer, nextResponses) : null,
      stateSent,
      stateIssued,
      result: answer?.kind === 'result' ? (answer.result ?? null) : null,
      error: answer?.kind === 'error' ? (answer.error ?? null) : null,
      legacy: legacyViews(c, i, index),
      diff: parent !== null
        ? diffRounds(parent, { params: requests[parent]?.params, tokenPayload: payloads[parent] }, { params: request?.params, tokenPayload: payloads[i] })
        : null,
      findings: findings.filter((f) => f.exchange === r.exchange).length,
      ...(r.task !== undefined ? { task: { step: r.task.step, status: r.task.status, polls: 1 + (r.task.polls?.length ?? 0) } } : {}),
      ...(r.origin !== undefined ? { origin: r.origin } : {}),
      ...(tried?.[i] ? { experiment: true as const } : {}),
    });
  }
  const card = taskCardView(c, index);
  return {
    id: c.id, method: c.method, name: c.name, era: c.era, status: c.status, client: c.client,
    ...(c.replayOf !== undefined ? { replayOf: c.replayOf } : {}),
    rounds,
    durationMs: callDuration(call.own.map((i) => c.rounds[i])),
    branches: branchesOf(c.rounds),
    callRounds: call.own.length,
    ...(call.experiment ? { experiment: true as const } : {}),
    findings: findings.map(findingView),
    ...(card !== null ? { task: card } : {}),
  };
}
