// Threading kept live: wraps the (already incremental) Threader and decides, per batch of
// changed records, whether they can simply be appended or everything must be re-threaded
// from the cached decodings. It never looks inside the Threader's decisions.
//
// Hazard: the Threader is append-only and judges each request against what was added
// before it, by send time. So only records sent after every record already threaded may
// be appended. A record already threaded that changed (a stream that grew, a response that
// arrived) is harmless only if every round it builds is unchanged (`threadSignature`);
// otherwise the whole capture is re-threaded (cheap next to decoding and lint, which stay
// cached). Legacy linking (GET streams, POSTed answers, server requests on a stream)
// places things out of order, so any sign of it re-threads every time.
import type { Conversation, DecodedExchange, ExchangeRecord } from '../protocol.js';
import { orderForThreading, Threader } from '../thread/threader.js';
import { buildRound } from '../thread/round.js';

/** What an exchange contributes to threading; equal strings thread identically. */
export function threadSignature(record: ExchangeRecord, decoded: DecodedExchange): string {
  let s = `${record.startedAt}|${record.request.method}|${decoded.era}`;
  decoded.sent.forEach((m, i) => {
    if (m.kind === 'request' || m.kind === 'notification') s += '|' + JSON.stringify(buildRound(record, decoded, i));
    else s += `|${m.kind}`;
  });
  return s;
}

/** The exchange takes part in legacy linking, which is not order-safe to append. */
export function usesLegacyLinking(record: ExchangeRecord, decoded: DecodedExchange): boolean {
  if (record.request.method.toUpperCase() === 'GET') return true;
  for (const m of decoded.sent) if (m.kind === 'result' || m.kind === 'error') return true;
  for (const m of decoded.received) if (m.kind === 'request') return true;
  return false;
}

export interface ThreadInput { record: ExchangeRecord; decoded: DecodedExchange }

/** The outcome of one threading step. */
export interface Threaded {
  conversations: Conversation[];
  /** Everything was threaded afresh: every Conversation object is new. */
  full: boolean;
  /** On an append: the conversations that gained rounds or are new. */
  grown: Conversation[];
}

export class ThreadState {
  #threader: Threader | null = null;
  #last: { t: number; seq: number } | null = null;
  #lens: number[] = [];
  #exLens: number[] = [];
  /** The latest send time threaded before the current append (for lint's timing check). */
  maxSentBefore = -Infinity;

  /** Any change may be appended only if the capture has been threaded at all. */
  get started(): boolean {
    return this.#threader !== null;
  }

  /** True when `r` is sent strictly after everything threaded so far. */
  appendable(r: ExchangeRecord): boolean {
    const l = this.#last;
    return l === null || r.startedAt > l.t || (r.startedAt === l.t && r.seq > l.seq);
  }

  /** Threads everything afresh. */
  rebuild(all: readonly ThreadInput[], final: boolean, states: { get(seq: number): ExchangeRecord['state'] | undefined }): Threaded {
    const threader = new Threader();
    const bySeq: DecodedExchange[] = [];
    for (const e of all) bySeq[e.record.seq] = e.decoded;
    const ordered = orderForThreading(all.map((e) => e.record));
    for (const r of ordered) threader.add(r, bySeq[r.seq]);
    this.#threader = threader;
    const lastR = ordered[ordered.length - 1];
    this.#last = lastR ? { t: lastR.startedAt, seq: lastR.seq } : null;
    this.maxSentBefore = -Infinity;
    const conversations = threader.conversations(final, states);
    this.#remember(conversations);
    return { conversations, full: true, grown: conversations };
  }

  /** Appends records all sent after everything threaded (check `appendable` first). */
  append(added: readonly ThreadInput[], final: boolean, states: { get(seq: number): ExchangeRecord['state'] | undefined }): Threaded {
    const threader = this.#threader;
    if (threader === null) throw new Error('append before the first rebuild');
    this.maxSentBefore = this.#last?.t ?? -Infinity;
    const sorted = [...added].sort((a, b) => a.record.startedAt - b.record.startedAt || a.record.seq - b.record.seq);
    for (const e of sorted) threader.add(e.record, e.decoded);
    const lastR = sorted[sorted.length - 1]?.record;
    if (lastR) this.#last = { t: lastR.startedAt, seq: lastR.seq };
    const conversations = threader.conversations(final, states);
    // Conversations only grow on an append (new ones at the end, rounds pushed on old
    // ones), so comparing round counts by position finds every one that changed.
    const grown: Conversation[] = [];
    for (let i = 0; i < conversations.length; i++) {
      if (i >= this.#lens.length || conversations[i].rounds.length !== this.#lens[i] || conversations[i].exchanges.length !== this.#exLens[i]) grown.push(conversations[i]);
    }
    this.#remember(conversations);
    return { conversations, full: false, grown };
  }

  /** Who issued a token (the Threader's record). */
  origins(token: string) {
    return this.#threader?.origins(token) ?? [];
  }

  #remember(conversations: Conversation[]): void {
    this.#lens = conversations.map((c) => c.rounds.length);
    this.#exLens = conversations.map((c) => c.exchanges.length);
  }
}
