// The analysis worker: the ONE comlink `expose()` in the project. It reads a session's
// exchanges from storage, runs analyze(), and answers with summaries; details by id.
// The page reaches it through one `wrap<AnalysisApi>()` and `import type` only.
import { expose } from 'comlink';
import { analyze, type Analysis } from './analysis.js';
import { DEMO_STATE_KEY } from './demo-key.js';
import type { Conversation, ConversationStatus, DecodedExchange, Era, ExchangeState, Finding } from './protocol.js';
import { PROTOCOL_VERSION } from './protocol.js';
import { CaptureStore, StorageError, type StorageErrorInfo, type StoredExchange } from './storage/index.js';
import { parseKey, type TokenKey } from './tokens/index.js';

/** One row of the exchange list. */
export interface ExchangeSummary {
  id: string;
  seq: number;
  startedAt: number;
  httpMethod: string;
  url: string;
  /** JSON-RPC method of the first request message, when the body is JSON-RPC. */
  method: string | null;
  name: string | null;
  status: number | null;
  state: ExchangeState;
  /** Events so far, for event-stream responses. */
  events: number | null;
}

export interface FindingCounts {
  error: number;
  warning: number;
  info: number;
}

/** One row of the conversation list. */
export interface ConversationSummary {
  id: string;
  method: string;
  name: string | null;
  era: Era;
  rounds: number;
  status: ConversationStatus;
  findings: FindingCounts;
  /** seq of its first exchange, for stable ordering. */
  firstSeq: number;
}

export interface ConversationDetail {
  conversation: Conversation;
  decoded: DecodedExchange[];
  findings: Finding[];
}

/** Failures the page shows (storage problems); anything else thrown is a bug. */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: StorageErrorInfo };

interface SessionCache {
  records: Map<string, StoredExchange>;
  /** Bumped on every change; an analysis is reused only while it matches. */
  version: number;
  analysis: { version: number; result: Promise<Analysis> } | null;
}

const store = new CaptureStore();
const sessions = new Map<string, SessionCache>();
// The demo server's key is known, so its tokens verify on a first visit with no setup.
let keys: TokenKey[] = [];
const demo = parseKey(DEMO_STATE_KEY);
if (demo.ok) keys = [demo.key];

async function guard<T>(fn: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    if (err instanceof StorageError) return { ok: false, error: err.toInfo() };
    throw err;
  }
}

async function cacheOf(session: string): Promise<SessionCache> {
  let c = sessions.get(session);
  if (!c) {
    const records = new Map<string, StoredExchange>();
    for await (const page of store.allExchanges(session)) for (const r of page) records.set(r.id, r);
    // Another call may have loaded it meanwhile; keep the first.
    c = sessions.get(session) ?? { records, version: 0, analysis: null };
    sessions.set(session, c);
  }
  return c;
}

function analysisOf(c: SessionCache): Promise<Analysis> {
  if (!c.analysis || c.analysis.version !== c.version) {
    const records = [...c.records.values()].sort((a, b) => a.seq - b.seq);
    // A live capture is not over: waiting chains stay in-progress, not abandoned.
    c.analysis = { version: c.version, result: analyze(records, { keys, final: false }) };
  }
  return c.analysis.result;
}

function summarize(r: StoredExchange, d: DecodedExchange | undefined): ExchangeSummary {
  const first = d?.sent.find((m) => m.kind === 'request' || m.kind === 'notification');
  const p = first?.params;
  const name = typeof p?.name === 'string' ? p.name : typeof p?.uri === 'string' ? p.uri : null;
  return {
    id: r.id, seq: r.seq, startedAt: r.startedAt, httpMethod: r.request.method, url: r.request.url,
    method: first?.method ?? null, name, status: r.response?.status ?? null, state: r.state,
    events: r.response?.events ? r.response.events.length : null,
  };
}

function countFindings(findings: readonly Finding[], conversation: string): FindingCounts {
  const n: FindingCounts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) if (f.conversation === conversation) n[f.severity] += 1;
  return n;
}

const api = {
  protocolVersion(): number {
    return PROTOCOL_VERSION;
  },

  /** Tells the worker these exchanges were written (from capture notices). */
  changed(session: string, ids: string[]): Promise<Answer<void>> {
    return guard(async () => {
      const c = sessions.get(session);
      if (!c) return; // not loaded yet: the first read loads everything
      const fresh = await Promise.all(ids.map((id) => store.getExchange(id)));
      for (const r of fresh) if (r && r.session === session) c.records.set(r.id, r);
      c.version += 1;
    });
  },

  /** Drops what is cached for a session (after a clear or an import). */
  forget(session: string): void {
    sessions.delete(session);
  },

  /** A page of the exchange list, in capture order. */
  exchanges(session: string, range: { offset?: number; limit?: number } = {}): Promise<Answer<{ total: number; items: ExchangeSummary[] }>> {
    return guard(async () => {
      const c = await cacheOf(session);
      const a = await analysisOf(c);
      // A negative offset counts from the end: `{ offset: -200 }` is the newest 200.
      const want = range.offset ?? 0;
      const offset = want < 0 ? Math.max(0, a.records.length + want) : want;
      const limit = Math.max(1, range.limit ?? 200);
      const items = a.records.slice(offset, offset + limit).map((r, i) => summarize(r as StoredExchange, a.decoded[offset + i]));
      return { total: a.records.length, items };
    });
  },

  conversations(session: string): Promise<Answer<ConversationSummary[]>> {
    return guard(async () => {
      const a = await analysisOf(await cacheOf(session));
      return a.conversations.map((c) => ({
        id: c.id, method: c.method, name: c.name, era: c.era, rounds: c.rounds.length, status: c.status,
        findings: countFindings(a.findings, c.id), firstSeq: c.exchanges[0] ?? -1,
      }));
    });
  },

  conversation(session: string, id: string): Promise<Answer<ConversationDetail | null>> {
    return guard(async () => {
      const a = await analysisOf(await cacheOf(session));
      const conversation = a.conversations.find((c) => c.id === id);
      if (!conversation) return null;
      const seqs = new Set(conversation.exchanges);
      return {
        conversation,
        decoded: a.decoded.filter((d) => seqs.has(d.seq)),
        findings: a.findings.filter((f) => f.conversation === id),
      };
    });
  },

  /** The raw record, for the detail pane. */
  exchange(id: string): Promise<Answer<StoredExchange | null>> {
    return guard(async () => (await store.getExchange(id)) ?? null);
  },

  /** Replaces the verification keys (text as typed: utf-8, hex:…, base64:…). */
  setKeys(texts: string[]): { errors: string[] } {
    const errors: string[] = [];
    const next: TokenKey[] = [];
    for (const t of texts) {
      const k = parseKey(t);
      if (k.ok) next.push(k.key);
      else errors.push(k.error);
    }
    keys = next;
    for (const c of sessions.values()) c.version += 1;
    return { errors };
  },
};

export type AnalysisApi = typeof api;

expose(api);
