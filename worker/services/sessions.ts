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

export function createSessionsService({ store, sessions, tokens, unsaved, guard, builtOf, listBuiltOf, cleared }: Pick<ServiceContext, 'store' | 'sessions' | 'tokens' | 'unsaved' | 'guard' | 'builtOf' | 'listBuiltOf' | 'cleared'>) {
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

    /** A page of the exchange list, in capture order (negative offset counts from the end). */
    exchanges(session: string, range: { offset?: number; limit?: number } = {}): Promise<Answer<{ total: number; items: ExchangeSummary[] }>> {
      return guard(async () => {
        const b = await builtOf(session);
        const want = range.offset ?? 0;
        const limit = Math.max(1, range.limit ?? 200);
        const total = b.recordsPage(0, 0).total;
        const offset = want < 0 ? Math.max(0, total + want) : want;
        const items = b.recordsPage(offset, limit).items.map((r): ExchangeSummary => {
          // By seq: `a.decoded` would lay out every exchange's decoding for a page of 200.
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
        return { total, items };
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
