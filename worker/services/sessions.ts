// Reading capture sessions: the list of sessions, and per session its exchange list, its
// conversation list (whole or as changed since the page's copy), a conversation's thread
// view, an exchange's detail and raw record. Lists send summaries; details are read by id.
import type { ExchangeState } from '../protocol.js';
import type { StoredExchange } from '../storage/index.js';
import { conversationView } from '../view/conversation-view.js';
import { eventCount } from '../decode/lean-record.js';
import { exchangeViewOf, searchedList, searchedListUpdate } from '../view/body-reads.js';
import { placeOfExchange, type ExchangePlace } from '../view/exchange-place.js';
import type { Answer, ConversationList, ConversationView, ExchangeView, ListUpdate, SessionInfo } from '../view/types.js';
import { builtModel, type SessionModel } from '../view/session-model.js';
import type { ServiceContext } from './context.js';

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

/** A page of the exchange list; `items` null: nothing on it changed since the copy marked `since`. */
export interface ExchangePage {
  total: number;
  /** Names what this page shows (the session's records at one version, and the range asked);
   *  null when it cannot be named (the session was dropped during the read). */
  mark: string | null;
  items: ExchangeSummary[] | null;
}

// A page's summaries are a function of the session's records (and their decoding, done by the
// build of the same records), so the model's `version`, bumped on every change of them, names
// them; check progress builds again at the same version and changes none of them. A model is
// made again after a clear or a reload from storage (its version starts over), and a worker
// restarts: so a mark also names this worker and the model object.
const WORKER_MARK = Math.random().toString(36).slice(2, 10);
const modelMarks = new WeakMap<SessionModel, number>();
let nextModelMark = 0;
function markOf(model: SessionModel, version: number, range: { offset?: number; limit?: number }): string {
  let m = modelMarks.get(model);
  if (m === undefined) modelMarks.set(model, (m = nextModelMark++));
  return `${WORKER_MARK}:${m}:${version}:${range.offset ?? 0}:${range.limit ?? ''}`;
}

export function createSessionsService({ store, sessions, tokens, unsaved, guard, modelOf, builtOf, listBuiltOf, cleared }: Pick<ServiceContext, 'store' | 'sessions' | 'tokens' | 'unsaved' | 'guard' | 'modelOf' | 'builtOf' | 'listBuiltOf' | 'cleared'>) {
  return {
    list(): Promise<Answer<SessionInfo[]>> {
      return guard(async () => {
        const current = (await store.getSetting('captureSession')) ?? null;
        return (await store.listSessions()).map((s) => ({ id: s.id, name: s.name, createdAt: s.createdAt, capturing: s.id === current }));
      });
    },

    /** Drops what is cached for a session (after a clear), and the numbers held for it. */
    forget(session: string): void {
      sessions.delete(session);
      cleared.tell(session);
    },

    /**
     * A page of the exchange list, in capture order (negative offset counts from the end).
     * `since`: the mark of the caller's copy of this same page; when nothing on it changed,
     * `items` is null and the copy stands (a refresh after check progress reads nothing).
     */
    exchanges(session: string, range: { offset?: number; limit?: number; since?: string | null } = {}): Promise<Answer<ExchangePage>> {
      return guard(async () => {
        // The version is read before the build: the build is of that version or a newer one,
        // so a mark never names records older than the items sent with it.
        const model = await modelOf(session);
        const version = model.version;
        const b = await builtOf(session);
        const total = b.recordsPage(0, 0).total;
        const mark = builtModel(b) === model ? markOf(model, version, range) : null;
        if (mark !== null && range.since === mark) return { total, mark, items: null };
        const want = range.offset ?? 0;
        const limit = Math.max(1, range.limit ?? 200);
        const offset = want < 0 ? Math.max(0, total + want) : want;
        const items = b.recordsPage(offset, limit).items.map((r): ExchangeSummary => {
          // By seq: `analysis.decoded` would lay out every exchange's decoding for a page of 200.
          const d = b.index.bySeq.get(r.seq)?.decoded;
          const first = d?.sent.find((m) => m.kind === 'request' || m.kind === 'notification');
          const p = first?.params;
          const name = typeof p?.name === 'string' ? p.name : typeof p?.uri === 'string' ? p.uri : null;
          return {
            id: r.id, seq: r.seq, startedAt: r.startedAt, httpMethod: r.request.method, url: r.request.url,
            method: first?.method ?? null, name, status: r.response?.status ?? null, state: r.state,
            events: eventCount(r), refused: r.refused ?? null,
          };
        });
        return { total, mark, items };
      });
    },

    /** The conversation list (summaries only) through a typed filter, with status-bar counts. */
    conversations(session: string, filter = ''): Promise<Answer<ConversationList>> {
      return guard(async () => searchedList(await listBuiltOf(session), filter));
    },

    /**
     * The list as changed since the page's copy of build `since` (the `epoch` of the last
     * answer; null for none): only the changed rows when the filter is blank and the worker
     * still knows what changed, else the whole list.
     */
    conversationsSince(session: string, filter: string, since: number | null): Promise<Answer<ListUpdate>> {
      return guard(async () => searchedListUpdate(await listBuiltOf(session), filter, since));
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
      return guard(async () => unsaved.heldRecord(id) ?? (await store.getExchange(id)) ?? null);
    },
  };
}
