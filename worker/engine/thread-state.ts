// Threading kept live: wraps the (already incremental) Threader and decides, per batch of
// changed records, whether they can simply be appended or everything must be re-threaded
// from the cached decodings. It never looks inside the Threader's decisions.
//
// Hazard: the Threader is append-only and judges each request against what was added
// before it, by send time. So only records sent after every record already threaded may
// be appended. A record already threaded that changed (a stream that grew, a response that
// arrived) is harmless if every round it builds is unchanged (`threadSignature`). A live
// answer to a pending request is filed in place (`reanswer`) when nothing threaded after
// it could have seen that answer; otherwise the whole capture is re-threaded from the
// cached decodings. Legacy linking (GET streams, POSTed answers, server requests on a stream)
// places things out of order, so any sign of it re-threads every time.
import type { Conversation, DecodedExchange, ExchangeRecord } from '../protocol.js';
import { orderForThreading, Threader, type StateOrigin } from '../thread/threader.js';
import { buildRound } from '../thread/round.js';
import { createsTask } from '../thread/task-linker.js';

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
  /** Each conversation's place in the Threader's list (new ones are appended to it). */
  #at = new Map<Conversation, number>();
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

  /** seq → place in the order exchanges were threaded (seqs are dense: an array, as the
   *  engine's entries, not a Map of every exchange). */
  #position: number[] = [];
  #order: number[] = [];

  /** Threads everything afresh. */
  rebuild(all: readonly ThreadInput[], final: boolean, states: { get(seq: number): ExchangeRecord['state'] | undefined }): Threaded {
    const threader = new Threader();
    const bySeq: DecodedExchange[] = [];
    for (const e of all) bySeq[e.record.seq] = e.decoded;
    const ordered = orderForThreading(all.map((e) => e.record));
    for (const r of ordered) threader.add(r, bySeq[r.seq]);
    this.#threader = threader;
    this.#order = ordered.map((r) => r.seq);
    this.#position = [];
    this.#order.forEach((seq, i) => void (this.#position[seq] = i));
    const lastR = ordered[ordered.length - 1];
    this.#last = lastR ? { t: lastR.startedAt, seq: lastR.seq } : null;
    this.maxSentBefore = -Infinity;
    const conversations = threader.conversations(final, states);
    this.#at = new Map(conversations.map((c, i) => [c, i]));
    threader.takeGrown(); // starts the tracking `append` reads
    return { conversations, full: true, grown: conversations };
  }

  /** Appends records all sent after everything threaded (check `appendable` first); `also`:
   *  conversations whose exchanges changed without changing their threading (statuses). */
  append(added: readonly ThreadInput[], final: boolean, states: { get(seq: number): ExchangeRecord['state'] | undefined }, also: readonly Conversation[] = []): Threaded {
    const threader = this.#threader;
    if (threader === null) throw new Error('append before the first rebuild');
    this.maxSentBefore = this.#last?.t ?? -Infinity;
    const sorted = [...added].sort((a, b) => a.record.startedAt - b.record.startedAt || a.record.seq - b.record.seq);
    for (const e of sorted) {
      threader.add(e.record, e.decoded);
      this.#position[e.record.seq] = this.#order.length;
      this.#order.push(e.record.seq);
    }
    const lastR = sorted[sorted.length - 1]?.record;
    if (lastR) this.#last = { t: lastR.startedAt, seq: lastR.seq };
    // The Threader says which conversations its `add`s created or grew (new ones come
    // last, rounds are pushed on old ones); only those and `also` are brought up to date,
    // and `grown` lists them in conversation order.
    const touched = threader.takeGrown();
    const conversations = threader.conversationsTouched(also.length === 0 ? touched : new Set([...touched, ...also]), final, states);
    for (let i = this.#at.size; i < conversations.length; i++) this.#at.set(conversations[i], i);
    const grown = [...touched].sort((a, b) => this.#at.get(a)! - this.#at.get(b)!);
    return { conversations, full: false, grown };
  }

  /**
   * Files the new answers of exchanges already threaded whose rounds had none (a live
   * response arriving), when no exchange threaded after one of them could have seen its
   * answer: each was sent before the answer arrived and none echoes the answer's token.
   * Null, with nothing changed, when that does not hold (then re-thread).
   */
  reanswer(changes: readonly { old: ThreadInput; now: ThreadInput }[], placedOf: (seq: number) => StateOrigin[], final: boolean, states: { get(seq: number): ExchangeRecord['state'] | undefined }): Threaded | null {
    const threader = this.#threader;
    if (threader === null) return null;
    const plans: { now: ThreadInput; placed: StateOrigin[] }[] = [];
    for (const { old, now } of changes) {
      const seq = now.record.seq;
      const pos = this.#position[seq];
      if (pos === undefined || old.decoded.sent.length !== now.decoded.sent.length) return null;
      const placed = placedOf(seq);
      let requests = 0;
      now.decoded.sent.forEach((m, i) => {
        if (m.kind !== old.decoded.sent[i].kind) requests = -Infinity;
        if (m.kind === 'request' || m.kind === 'notification') requests++;
      });
      if (placed.length !== requests) return null;
      let answered = Infinity;
      const issued = new Set<string>();
      for (const o of placed) {
        const round = o.conversation.rounds[o.round];
        if (round.outcome !== 'no-response' || round.stateIssued !== null || round.answeredAt !== null || round.legacy !== undefined || round.task !== undefined) return null;
        const fresh = buildRound(now.record, now.decoded, round.message);
        // A task's answer joins or folds rounds by what it says: only a re-thread files it.
        if (createsTask(now.decoded, fresh)) return null;
        if (fresh.requestId !== round.requestId || fresh.sentAt !== round.sentAt || fresh.stateSent !== round.stateSent
          || JSON.stringify(fresh.inputResponses) !== JSON.stringify(round.inputResponses) || fresh.legacy !== undefined) return null;
        if (fresh.answeredAt !== null) answered = Math.min(answered, fresh.answeredAt);
        if (fresh.stateIssued !== null) issued.add(fresh.stateIssued);
      }
      if (this.#order.length - pos > 2000) return null;
      for (let i = pos + 1; i < this.#order.length; i++) {
        for (const o of placedOf(this.#order[i])) {
          const later = o.conversation.rounds[o.round];
          if (later.sentAt >= answered || (later.stateSent !== null && issued.has(later.stateSent))) return null;
        }
      }
      plans.push({ now, placed });
    }
    const position = (seq: number) => this.#position[seq] ?? Infinity;
    const grown = new Set<Conversation>();
    for (const p of plans) {
      threader.reanswer(p.now.record, p.now.decoded, p.placed, position);
      for (const o of p.placed) grown.add(o.conversation);
    }
    const conversations = threader.conversationsTouched(grown, final, states);
    return { conversations, full: false, grown: [...grown] };
  }

  /** Who issued a token (the Threader's record). */
  origins(token: string) {
    return this.#threader?.origins(token) ?? [];
  }
}
