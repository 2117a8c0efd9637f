// Legacy (2025-11-25) threading: server-initiated requests (on a call's SSE stream or on the
// GET stream) and the client's POSTed answers join the call's conversation.
//
// Hazard: a GET stream starts before the calls it serves and its events arrive later, and
// an answer can be POSTed before we have seen the request it answers (out-of-order
// captures). Whatever cannot be placed yet is kept and placed again in `settle`.
import type { Conversation, DecodedExchange, ExchangeRecord, LegacyInteraction, Round, RpcMessage } from '../protocol.js';
import { callNames, namedBy, serverRequestNames, type Names } from './legacy-evidence.js';
import { canonicalJson } from './round.js';

interface Pending {
  conversation: Conversation;
  interaction: LegacyInteraction;
}

interface OrphanAnswer { record: ExchangeRecord; message: RpcMessage; index: number; session: string }
interface OrphanServerRequest { record: ExchangeRecord; message: RpcMessage; session: string }

/** Links legacy server-initiated requests and their answers to conversations. */
export class LegacyLinker {
  private readonly pending = new Map<string, Pending>();
  private readonly sessionOf = new Map<Conversation, string>();
  private orphanAnswers: OrphanAnswer[] = [];
  private orphanRequests: OrphanServerRequest[] = [];
  /** What each round's request names (progress token, task), for server requests that say. */
  private readonly names = new WeakMap<Round, Names>();

  /** Remembers what a round's request names, should a server request name it back. */
  note(round: Round, request: RpcMessage): void {
    const n = callNames(request);
    if (n.progressToken !== undefined || n.taskId !== undefined) this.names.set(round, n);
  }

  /** Remembers which session a conversation belongs to. */
  track(conv: Conversation, session: string): void {
    if (!this.sessionOf.has(conv)) this.sessionOf.set(conv, session);
  }

  /** Registers the server requests found on a round's own stream. */
  register(conv: Conversation, round: number, session: string): void {
    for (const it of conv.rounds[round].legacy ?? []) this.pending.set(pendingKey(session, it.id), { conversation: conv, interaction: it });
  }

  /** A client POSTed a JSON-RPC response (legacy answer to a server request). */
  answer(record: ExchangeRecord, message: RpcMessage, index: number, session: string): void {
    if (!this.place(record, message, index, session)) this.orphanAnswers.push({ record, message, index, session });
  }

  /** Server requests on a standalone GET stream: joined to the one call in flight then. */
  getStream(record: ExchangeRecord, decoded: DecodedExchange, session: string, convs: readonly Conversation[]): void {
    for (const m of decoded.received) {
      if (m.kind !== 'request' || m.method === undefined || m.id === undefined) continue;
      if (!this.placeServerRequest(record, m, session, convs)) this.orphanRequests.push({ record, message: m, session });
    }
  }

  /** Places what could not be placed on arrival. */
  settle(convs: readonly Conversation[]): void {
    this.orphanRequests = this.orphanRequests.filter((o) => !this.placeServerRequest(o.record, o.message, o.session, convs));
    this.orphanAnswers = this.orphanAnswers.filter((o) => !this.place(o.record, o.message, o.index, o.session));
  }

  private place(record: ExchangeRecord, message: RpcMessage, index: number, session: string): boolean {
    const key = pendingKey(session, message.id ?? null);
    const p = this.pending.get(key);
    if (!p) return false;
    p.interaction.answeredIn = record.seq;
    p.interaction.answerIndex = index;
    if (record.response && !record.stdio) p.interaction.answerStatus = record.response.status;
    p.conversation.exchanges.push(record.seq);
    this.pending.delete(key);
    return true;
  }

  // A 2025-era server request rarely names its call on the wire: the SDK 1.x hands the call's
  // id to the transport, which over HTTP picks that call's SSE stream; stdio and a GET stream
  // have one stream for all. In this order:
  // 1. it names the call: its `_meta.progressToken` is the call's, or its `_meta` related-task
  //    is the task the call reads or belongs to (legacy-evidence.ts);
  // 2. the wire order: only calls sent before it and not yet answered when it came can have
  //    asked it (on stdio the times keep the wire's order, stdio-pairing.ts);
  // 3. a handler waits for the answer to what it asked, so calls answered before the client
  //    answered this request are ruled out.
  // Whatever stays ambiguous is left unjoined, never guessed: several calls waiting on one
  // pipe when the client answered leave nothing that says which asked.
  private stillWaiting(inFlight: { c: Conversation; r: number }[], m: RpcMessage, session: string): { c: Conversation; r: number }[] {
    const key = pendingKey(session, m.id ?? null);
    const answer = this.orphanAnswers.find((o) => o.message.t >= m.t && pendingKey(o.session, o.message.id ?? null) === key);
    if (!answer) return inFlight;
    const answeredAt = answer.message.t;
    return inFlight.filter(({ c, r }) => {
      const round = c.rounds[r];
      return round.answeredAt === null || round.answeredAt >= answeredAt;
    });
  }

  private placeServerRequest(record: ExchangeRecord, m: RpcMessage, session: string, convs: readonly Conversation[]): boolean {
    const inFlight: { c: Conversation; r: number }[] = [];
    for (const c of convs) {
      if (c.era !== 'legacy' || (this.sessionOf.get(c) ?? '') !== session) continue;
      c.rounds.forEach((r, i) => {
        if (r.sentAt <= m.t && (r.answeredAt === null || r.answeredAt >= m.t) && r.requestId !== null) inFlight.push({ c, r: i });
      });
    }
    const named = namedBy(serverRequestNames(m), inFlight, ({ c, r }) => this.names.get(c.rounds[r]));
    const candidates = named.length > 0 ? named : inFlight.length > 1 ? this.stillWaiting(inFlight, m, session) : inFlight;
    if (candidates.length !== 1) return false;
    const { c, r } = candidates[0];
    const it: LegacyInteraction = { exchange: record.seq, stream: m.stream, id: m.id ?? null, method: m.method ?? '?', t: m.t };
    const round = c.rounds[r];
    (round.legacy ??= []).push(it);
    c.exchanges.push(record.seq);
    this.pending.set(pendingKey(session, it.id), { conversation: c, interaction: it });
    return true;
  }
}

function pendingKey(session: string, id: unknown): string {
  return `${session}\u0000${canonicalJson(id)}`;
}
