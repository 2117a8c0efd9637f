// The analysis worker: the ONE comlink `expose()` in the project. It reads a session's
// exchanges from storage, analyses them, and answers the page with list rows and details
// by id; it also imports, exports, filters and reads tokens, so the page never parses
// traffic. The page reaches it through one `wrap<AnalysisApi>()` and `import type` only.
//
// Faults: this worker may die (an uncaught error, OOM) and be replaced by the page. All
// it holds is rebuilt: sessions load lazily from storage, remembered keys from settings,
// and what storage cannot give back (keys set for this visit only, exchanges storage
// refused) the page sends again (`setKey`, `holdUnsaved`). `lifeline` lets the page see a
// death that fires no event.
import { expose } from 'comlink';
import { CAPTURE_CHANNEL } from './capture/notices.js';
import { RelayFeed } from './capture/relay-feed.js';
import { CaptureOwner, type CaptureListener } from './view/capture-owner.js';
import { exportHar, exportJsonl, importCapture } from './capture/index.js';
import { DEMO_STATE_KEY } from './demo-key.js';
import { toCurl, toFetch } from './export/index.js';
import { ALL_RULES } from './lint/rules/index.js';
import { CLAUSE_TEXTS } from './lint/clause-excerpts.js';
import type { ExchangeState } from './protocol.js';
import { PROTOCOL_VERSION } from './protocol.js';
import { sarifReport } from './report/sarif.js';
import { CaptureStore, StorageError, type StoredExchange } from './storage/index.js';
import { conversationView, TokenReader } from './view/conversation-view.js';
import { eventCount } from './decode/lean-record.js';
import { exchangeViewOf, exportRecords, searchedList, searchedListUpdate, searchedRecords, wholeRecord } from './view/body-reads.js';
import { Keyring, serverOf } from './view/keyring.js';
import { SessionModel } from './view/session-model.js';
import { Coalescer } from './view/coalescer.js';
import { createUnsavedApi } from './view/unsaved-api.js';
import { createConsoleApi } from './view/console-api.js';
import { createImportApi } from './view/import-api.js';
import { findingsSummary, type FindingsSummary } from './view/findings-summary.js';
import { placeOfExchange, type ExchangePlace } from './view/exchange-place.js';
import { withoutCaptureExt } from './export/file-name.js';
import type { Answer } from './view/types.js';
import type {
  ConversationList, ConversationView, ListUpdate, ExchangeView, ImportAnswer, KeyInfo, RuleInfo, SessionInfo,
} from './view/types.js';

export type * from './view/types.js';
export type * from './view/console-types.js';
export type { UnsavedExchange } from './view/session-model.js';
export type { FindingsEntry, FindingOccurrence, FindingsSummary } from './view/findings-summary.js';
export type { ExchangePlace } from './view/exchange-place.js';

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
  /** The relay's reason when it refused the request (ExchangeRecord.refused). */
  refused: string | null;
}


const store = new CaptureStore();
const sessions = new Map<string, Promise<SessionModel>>();
const keyring = new Keyring();
const tokens = new TokenReader(keyring);
const VERSION = '0.1.0';
const unsavedApi = createUnsavedApi({ store, sessions, guard });

async function guard<T>(fn: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    if (err instanceof StorageError) return { ok: false, error: err.toInfo() };
    throw err;
  }
}

function modelOf(session: string): Promise<SessionModel> {
  let m = sessions.get(session);
  if (!m) {
    m = (async () => {
      // An imported file is a finished capture (final), also after a reload.
      const imported = (await store.listSessions()).some((s) => s.id === session && s.imported === true);
      const model = new SessionModel([], { final: imported, bodies: store });
      for await (const page of store.allExchanges(session)) model.put(page);
      model.hold(unsavedApi.heldOf(session));
      return model;
    })();
    // A failed load is not cached: the next call tries again.
    m.catch(() => sessions.delete(session));
    sessions.set(session, m);
  }
  return m;
}

async function builtOf(session: string) {
  return (await modelOf(session)).built((url) => keyring.keysFor(serverOf(url)), keyring.version);
}

// The one owner of capture sessions' changes: notices heard, relay records and Console
// sends are laid into the sessions here (view/capture-owner.ts); the page is only told.
const owner = new CaptureOwner({ store, sessions, analyseSoon: (s) => analyseSoon(s) });
let feed: RelayFeed | null = null;

// Changes are analysed once per window while they keep coming (view/coalescer.ts), so the
// next read finds the analysis done; a read never waits for the window.
const analysers = new Map<string, Coalescer>();
function analyseSoon(session: string): void {
  let c = analysers.get(session);
  if (!c) analysers.set(session, (c = new Coalescer(() => builtOf(session))));
  c.poke();
}

async function rememberKeys(): Promise<void> {
  await store.setSetting('tokenKeys', keyring.remembered());
}


function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'capture';
}

const api = {
  protocolVersion(): number {
    return PROTOCOL_VERSION;
  },

  /**
   * Called once by the page: `demoServer` is the embedded demo's endpoint (origin + path),
   * whose key is known; remembered keys are loaded from settings. With `capture` (the page's
   * origin), this worker starts owning capture: it hears the service worker's notices and
   * runs the relay feed, both for as long as it lives.
   */
  async init(opts: { demoServer: string; capture?: string }): Promise<Answer<KeyInfo[]>> {
    keyring.set(opts.demoServer, DEMO_STATE_KEY, { builtIn: true });
    if (opts.capture !== undefined && !feed && typeof BroadcastChannel === 'function') {
      owner.hear(new BroadcastChannel(CAPTURE_CHANNEL));
      if (typeof EventSource === 'function') {
        feed = new RelayFeed({
          store, base: opts.capture, openEvents: (url) => new EventSource(url),
          written: (records) => void owner.apply(records), announce: (n) => owner.announce(n),
        });
        feed.start();
      }
    }
    return guard(async () => {
      for (const k of (await store.getSetting('tokenKeys')) ?? []) keyring.set(k.server, k.text, { remembered: true });
      return keyring.list();
    });
  },

  sessions(): Promise<Answer<SessionInfo[]>> {
    return guard(async () => {
      const current = (await store.getSetting('captureSession')) ?? null;
      return (await store.listSessions()).map((s) => ({ id: s.id, name: s.name, createdAt: s.createdAt, capturing: s.id === current }));
    });
  },

  /**
   * The page's listener for capture: called with the sessions that changed, once this worker
   * holds the change (a read right after sees it). One per page; null stops it.
   */
  watchCapture(listener: CaptureListener | null): void {
    owner.listen(listener);
  },

  /**
   * Resolves once this worker holds the Web Lock `name` for the rest of its life. The page
   * then queues for the same lock: it is granted when this worker is gone, however it died
   * (closed, crashed, out of memory), and a busy worker never looks dead. False without
   * Web Locks.
   */
  async lifeline(name: string): Promise<boolean> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (!locks) return false;
    await new Promise<void>((held) => {
      void locks.request(name, () => {
        held();
        return new Promise<never>(() => undefined);
      });
    });
    return true;
  },

  /** Drops what is cached for a session (after a clear). */
  forget(session: string): void {
    sessions.delete(session);
  },

  /** A page of the exchange list, in capture order (negative offset counts from the end). */
  exchanges(session: string, range: { offset?: number; limit?: number } = {}): Promise<Answer<{ total: number; items: ExchangeSummary[] }>> {
    return guard(async () => {
      const b = await builtOf(session);
      const a = b.analysis;
      const want = range.offset ?? 0;
      const offset = want < 0 ? Math.max(0, a.records.length + want) : want;
      const limit = Math.max(1, range.limit ?? 200);
      const items = a.records.slice(offset, offset + limit).map((r, i): ExchangeSummary => {
        const d = a.decoded[offset + i];
        const first = d?.sent.find((m) => m.kind === 'request' || m.kind === 'notification');
        const p = first?.params;
        const name = typeof p?.name === 'string' ? p.name : typeof p?.uri === 'string' ? p.uri : null;
        return {
          id: r.id, seq: r.seq, startedAt: r.startedAt, httpMethod: r.request.method, url: r.request.url,
          method: first?.method ?? null, name, status: r.response?.status ?? null, state: r.state,
          events: eventCount(r), refused: r.refused ?? null,
        };
      });
      return { total: a.records.length, items };
    });
  },

  /** The conversation list (summaries only) through a typed filter, with status-bar counts. */
  conversations(session: string, filter = ''): Promise<Answer<ConversationList>> {
    return guard(async () => searchedList(await builtOf(session), filter));
  },

  /**
   * The list as changed since the page's copy of build `since` (the `epoch` of the last
   * answer; null for none): only the changed rows when the filter is blank and the worker
   * still knows what changed, else the whole list.
   */
  conversationsSince(session: string, filter: string, since: number | null): Promise<Answer<ListUpdate>> {
    return guard(async () => searchedListUpdate(await builtOf(session), filter, since));
  },

  /** Every finding of the session, repeated ones grouped per server and rule (the page's summary). */
  findingsSummary(session: string): Promise<Answer<FindingsSummary>> {
    return guard(async () => {
      const b = await builtOf(session);
      return findingsSummary(b.analysis.findings, b.analysis.records, [...b.byId.values()].map((v) => v.conversation));
    });
  },

  /** The thread view of one conversation. */
  conversation(session: string, id: string): Promise<Answer<ConversationView | null>> {
    return guard(async () => {
      const b = await builtOf(session);
      const hit = b.byId.get(id);
      return hit ? conversationView(hit.conversation, b.index, tokens) : null;
    });
  },

  /** The conversation (and round) that holds exchange `id`, for links that name an exchange. */
  placeOfExchange(session: string, id: string): Promise<Answer<ExchangePlace | null>> {
    return guard(async () => {
      const b = await builtOf(session);
      return placeOfExchange([...b.byId.values()].map((v) => v.conversation), b.analysis.records, id);
    });
  },

  /** The detail pane of one exchange; `full` lifts the body size cut ("show all"). */
  exchangeView(session: string, id: string, full = false): Promise<Answer<ExchangeView | null>> {
    return guard(async () => exchangeViewOf(await builtOf(session), id, full));
  },

  /** The raw record (a held copy when storage refused it). */
  exchange(id: string): Promise<Answer<StoredExchange | null>> {
    return guard(async () => unsavedApi.heldRecord(id) ?? (await store.getExchange(id)) ?? null);
  },

  rules(): RuleInfo[] {
    return ALL_RULES.map((r) => ({
      id: r.id, severity: r.severity, clause: r.clause, title: r.title, tier: r.tier,
      clauseText: CLAUSE_TEXTS[r.clause] ?? { excerpts: [], links: [] },
    }));
  },

  keys(): KeyInfo[] {
    return keyring.list();
  },

  /**
   * Sets the verification key for a server (empty text removes it). Kept in memory; with
   * `remember`, also in IndexedDB settings. The answer never contains the key; `applied`
   * says whether the key is now in use (false only for a key that could not be read).
   */
  async setKey(server: string, text: string, remember: boolean): Promise<{ ok: boolean; error?: string; keys: KeyInfo[]; applied: boolean }> {
    const r = keyring.set(server, text, { remembered: remember });
    if (!r.ok) return { ok: false, error: r.error, keys: keyring.list(), applied: false };
    try {
      await rememberKeys();
    } catch (err) {
      const why = err instanceof StorageError ? err.message : 'unexpected storage error';
      return { ok: false, error: `The key is set for this visit but could not be remembered: ${why}`, keys: keyring.list(), applied: true };
    }
    return { ok: true, keys: keyring.list(), applied: true };
  },

  /**
   * Reads a HAR or JSONL file into a new capture session. A damaged file is refused with
   * what was skipped and how many entries are readable, unless `allowPartial`.
   */
  async importFile(text: string, fileName: string, allowPartial = false): Promise<Answer<ImportAnswer>> {
    return guard(async (): Promise<ImportAnswer> => {
      const prefix = crypto.randomUUID().slice(0, 8);
      const got = importCapture(text, { allowPartial, idPrefix: prefix });
      const skippedOf = (s: { where: string; message: string }[]) => s.slice(0, 50).map((x) => ({ where: x.where, message: x.message }));
      if (!got.ok) {
        const retry = got.skipped.length ? importCapture(text, { allowPartial: true, idPrefix: prefix }) : null;
        return {
          ok: false, message: got.error.message, where: got.error.where, skipped: skippedOf(got.skipped),
          readable: retry?.ok ? retry.exchanges.length : null,
        };
      }
      const s = await store.createSession(fileName, { imported: true });
      // Imported ids must not collide with another import of the same file.
      const records: StoredExchange[] = got.exchanges.map((r, i) => ({ ...r, id: r.id.startsWith(`${prefix}-`) ? r.id : `${prefix}-${r.id}`, seq: i, session: s.id }));
      for (const r of records) if (r.derivedFrom !== undefined && !r.derivedFrom.startsWith(`${prefix}-`)) r.derivedFrom = `${prefix}-${r.derivedFrom}`;
      await store.putExchanges(records);
      sessions.set(s.id, Promise.resolve(new SessionModel(records, { final: true, bodies: store })));
      return {
        ok: true, session: { id: s.id, name: s.name, createdAt: s.createdAt, capturing: false },
        count: records.length, skipped: skippedOf(got.skipped), notes: got.notes,
      };
    });
  },

  /**
   * A session (or the filtered view) as HAR or JSONL text. Sanitised unless `keepSecrets`:
   * credentials, cookies, API-key headers and every user-entered key are redacted.
   */
  exportCapture(session: string, opts: { format: 'har' | 'jsonl'; filter?: string; keepSecrets?: boolean; name?: string }): Promise<Answer<{ text: string; count: number; fileName: string }>> {
    return guard(async () => {
      const { records } = await exportRecords(await builtOf(session), opts.filter ?? '');
      const sanitize = !opts.keepSecrets;
      const secrets = keyring.secretsForRedaction();
      const text = opts.format === 'har' ? exportHar(records, { sanitize, secrets }) : exportJsonl(records, { sanitize, secrets });
      return { text, count: records.length, fileName: `${safeName(withoutCaptureExt(opts.name ?? 'capture'))}.${opts.format === 'har' ? 'har' : 'jsonl'}` };
    });
  },

  /** Findings of the session (or the filtered view) as SARIF 2.1.0 text. */
  exportSarif(session: string, opts: { filter?: string; name?: string } = {}): Promise<Answer<{ text: string; count: number; fileName: string }>> {
    return guard(async () => {
      const { findings } = await searchedRecords(await builtOf(session), opts.filter ?? '');
      const name = safeName(withoutCaptureExt(opts.name ?? 'capture'));
      return { text: JSON.stringify(sarifReport(findings, ALL_RULES, name, VERSION), null, 2), count: findings.length, fileName: `${name}.sarif` };
    });
  },

  /** One exchange's request as a cURL command or a fetch() call (sanitised unless asked). */
  copyAs(session: string, id: string, kind: 'curl' | 'fetch', keepSecrets = false): Promise<Answer<string | null>> {
    return guard(async () => {
      const r = await wholeRecord(await modelOf(session), id);
      if (!r) return null;
      const opts = { sanitize: !keepSecrets, secrets: keyring.secretsForRedaction() };
      return kind === 'curl' ? toCurl(r, opts) : toFetch(r, opts);
    });
  },
};

const consoleApi = createConsoleApi({ store, sessions, builtOf, guard, safeName, apply: (records) => owner.apply(records) });

const importApi = createImportApi({ store, sessions, importText: (text, name, partial) => api.importFile(text, name, partial) });

Object.assign(api, consoleApi, unsavedApi.api, importApi);

export type AnalysisApi = typeof api & typeof consoleApi & typeof unsavedApi.api & typeof importApi;

expose(api);
