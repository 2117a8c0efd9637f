// Threading rounds into conversations (design.md, Threading). No field links a retry to its
// original, so a request joins an open chain by, in order: (1) exact echo of a token the
// chain issued; (2) same method, name/uri, arguments and client, with inputResponses keys
// that answer the chain's last inputRequests, sent after that answer arrived; (3) when two
// chains fit equally, it joins neither: it starts its own conversation marked `ambiguous`
// with the candidates named. A retry never joins a chain that had already ended.
//
// Hazard: feed exchanges in the order their requests were sent (`orderForThreading`).
// Answers arrive later than requests, so "ended" and "open" are judged at the new
// request's send time, not at the time of processing.
import type { Conversation, ConversationStatus, DecodedExchange, ExchangeRecord, Round } from '../protocol.js';
import { header } from '../decode/headers.js';
import { MRTR_METHODS, requestMeta, targetName } from '../decode/meta.js';
import { buildRound, canonicalArgs, canonicalJson } from './round.js';
import { LegacyLinker } from './legacy.js';

interface ChainInfo {
  /** method + name: chains that a retry could continue are looked up by this. */
  key: string;
  /** The first round's arguments, canonical; computed only when a retry needs it. */
  args: () => string;
  clientInfo: ClientInfo;
}

/** clientInfo as sent (JSON text) and, computed on first need, in canonical form. */
interface ClientInfo {
  raw: string | null;
  canonical: () => string | null;
}

interface StateOrigin {
  conversation: Conversation;
  round: number;
}

/** Sorts records by request send time, then by position in the capture. */
export function orderForThreading(records: readonly ExchangeRecord[]): ExchangeRecord[] {
  return [...records].sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq);
}

function lastRound(c: Conversation): Round {
  return c.rounds[c.rounds.length - 1];
}

/** The chain had ended (final answer received) before time `t`. */
function endedBefore(c: Conversation, t: number): boolean {
  const r = lastRound(c);
  return (r.outcome === 'complete' || r.outcome === 'error') && r.answeredAt !== null && r.answeredAt <= t;
}

function keyScore(retryKeys: readonly string[] | null, asked: Record<string, string> | null): number {
  const want = asked ? Object.keys(asked) : [];
  const have = retryKeys ?? [];
  if (want.length === 0 && have.length === 0) return 2;
  const haveSet = new Set(have);
  const hits = want.filter((k) => haveSet.has(k)).length;
  if (hits === want.length && have.length === want.length) return 2;
  return hits > 0 ? 1 : 0;
}

/** Incremental threader: `add` each exchange in send order, read `conversations()` any time. */
export class Threader {
  private readonly convs: Conversation[] = [];
  private readonly info = new Map<string, ChainInfo>();
  private readonly issued = new Map<string, StateOrigin[]>();
  private readonly open = new Map<string, Set<Conversation>>();
  private readonly legacy = new LegacyLinker();

  /** Threads every client message of one exchange. */
  add(record: ExchangeRecord, decoded: DecodedExchange): void {
    const session = header(record.request.headers, 'mcp-session-id') ?? '';
    decoded.sent.forEach((m, i) => {
      if (m.kind === 'request' || m.kind === 'notification') this.addRequest(record, decoded, i, session);
      else if (m.kind === 'result' || m.kind === 'error') this.legacy.answer(record, m, i, session);
    });
    if (record.request.method.toUpperCase() === 'GET') this.legacy.getStream(record, decoded, session, this.convs);
  }

  /** Every conversation so far, with statuses. `final`: the capture has ended, so chains
   *  left waiting for a retry are `abandoned` rather than `in-progress`. */
  conversations(final: boolean, states?: ReadonlyMap<number, ExchangeRecord['state']>): Conversation[] {
    this.legacy.settle(this.convs);
    for (const c of this.convs) {
      c.exchanges = [...new Set(c.exchanges)].sort((a, b) => a - b);
      c.status = statusOf(c, final, states);
    }
    return this.convs;
  }

  /** Who issued a token, for rules like state-cross-request. */
  origins(token: string): readonly StateOrigin[] {
    return this.issued.get(token) ?? [];
  }

  /** Same arguments and a compatible client as the chain's first round. */
  private sameCall(c: Conversation, args: () => string, clientInfo: ClientInfo): boolean {
    const info = this.info.get(c.id);
    return info !== undefined && info.args() === args() && compatible(info.clientInfo, clientInfo);
  }

  private addRequest(record: ExchangeRecord, decoded: DecodedExchange, index: number, session: string): void {
    const m = decoded.sent[index];
    const round = buildRound(record, decoded, index);
    const method = m.method ?? '?';
    const name = targetName(method, m.params);
    // Hot path: arguments and clientInfo are put in canonical form lazily, only when a
    // retry has candidates to compare with (most requests have none).
    const args = lazy(() => canonicalArgs(method, m.params));
    const key = `${method}\u0000${name ?? ''}`;
    const ci = requestMeta(m.params).clientInfo;
    const clientInfo: ClientInfo = ci ? { raw: JSON.stringify(ci), canonical: lazy(() => canonicalJson(ci)) } : { raw: null, canonical: () => null };

    const isRetry = MRTR_METHODS.has(method) && m.kind === 'request' && (round.stateSent !== null || round.inputResponses !== null);
    let joined: Conversation | null = null;
    let ambiguous: Conversation[] = [];
    let reason = '';
    let replayOf: string | undefined;

    if (isRetry && round.stateSent !== null) {
      const origins = this.issued.get(round.stateSent) ?? [];
      const live = origins.filter((o) => o.conversation.method === method && o.conversation.name === name && !endedBefore(o.conversation, round.sentAt));
      const byConv = [...new Map(live.map((o) => [o.conversation.id, o])).values()];
      let pick = byConv;
      if (pick.length > 1) pick = pick.filter((o) => this.sameCall(o.conversation, args, clientInfo));
      if (pick.length === 1) {
        joined = pick[0].conversation;
        round.link = 'state';
        round.parent = pick[0].round;
        round.linkReason = `echoes the requestState issued in round ${pick[0].round + 1}`;
      } else if (pick.length > 1) {
        ambiguous = pick.map((o) => o.conversation);
        reason = `echoes a requestState issued by ${pick.length} open chains with the same tool, arguments and client`;
      } else if (origins.length > 0) {
        const ended = origins.find((o) => o.conversation.method === method && o.conversation.name === name);
        if (ended) replayOf = ended.conversation.id;
        // Either a replay of an ended chain or a token carried over to another request: it
        // starts a conversation of its own; the lint rules say which.
      }
    }

    if (!joined && ambiguous.length === 0 && replayOf === undefined && isRetry && !(round.stateSent !== null && (this.issued.get(round.stateSent)?.length ?? 0) > 0)) {
      const scored: { c: Conversation; s: number }[] = [];
      for (const c of this.open.get(key) ?? []) {
        const last = lastRound(c);
        if (last.answeredAt === null || last.answeredAt > round.sentAt) continue;
        if (!this.sameCall(c, args, clientInfo)) continue;
        const s = keyScore(round.inputResponses, last.inputRequests);
        if (s > 0) scored.push({ c, s });
      }
      const best = Math.max(0, ...scored.map((x) => x.s));
      const top = scored.filter((x) => x.s === best);
      if (top.length === 1) {
        joined = top[0].c;
        round.link = 'match';
        round.parent = joined.rounds.length - 1;
        round.linkReason = best === 2
          ? 'same method, name, arguments and client; answers exactly the keys the previous round asked for'
          : 'same method, name, arguments and client; answers some of the keys the previous round asked for';
      } else if (top.length > 1) {
        ambiguous = top.map((x) => x.c);
        reason = `${top.length} open chains have the same method, name, arguments and client and asked for the same keys; no token tells them apart`;
      }
    }

    let conv: Conversation;
    if (joined) {
      conv = joined;
      this.open.get(this.info.get(conv.id)!.key)?.delete(conv);
      conv.rounds.push(round);
      conv.exchanges.push(record.seq);
    } else {
      if (ambiguous.length > 0) {
        round.link = 'ambiguous';
        round.linkReason = reason;
        round.candidates = ambiguous.map((c) => c.id);
      }
      conv = {
        id: index === 0 ? `c${record.seq}` : `c${record.seq}.${index}`,
        method, name, era: decoded.era, client: clientInfo.raw, exchanges: [record.seq],
        status: 'in-progress', rounds: [round], ...(replayOf !== undefined ? { replayOf } : {}),
      };
      this.convs.push(conv);
      this.info.set(conv.id, { key, args, clientInfo });
      this.legacy.track(conv, session);
    }
    const ri = conv.rounds.length - 1;
    if (round.stateIssued !== null) {
      const list = this.issued.get(round.stateIssued);
      if (list) list.push({ conversation: conv, round: ri });
      else this.issued.set(round.stateIssued, [{ conversation: conv, round: ri }]);
    }
    if (round.outcome === 'input_required') {
      const k = this.info.get(conv.id)!.key;
      let set = this.open.get(k);
      if (!set) this.open.set(k, (set = new Set()));
      set.add(conv);
    }
    if (round.legacy) this.legacy.register(conv, ri, session);
  }
}

/** clientInfo values agree, or one side did not say. JSON text first (the same client
 *  re-sends the same object), canonical form only when the texts differ. */
function compatible(a: ClientInfo, b: ClientInfo): boolean {
  if (a.raw === null || b.raw === null || a.raw === b.raw) return true;
  return a.canonical() === b.canonical();
}

function lazy<T>(f: () => T): () => T {
  let done = false;
  let v: T;
  return () => {
    if (!done) {
      v = f();
      done = true;
    }
    return v;
  };
}

function statusOf(c: Conversation, final: boolean, states?: ReadonlyMap<number, ExchangeRecord['state']>): ConversationStatus {
  const last = lastRound(c);
  switch (last.outcome) {
    case 'complete': return 'complete';
    case 'error': return 'error';
    case 'input_required': return final ? 'abandoned' : 'in-progress';
    case 'no-response': {
      const st = states?.get(last.exchange);
      if (st === 'pending' || st === 'streaming') return 'in-progress';
      return final || st === 'aborted' || st === 'failed' ? 'abandoned' : 'in-progress';
    }
  }
}

export type { StateOrigin };
