// Reads bodies back for a session whose model keeps lean records (view/session-model.ts):
// the detail pane, copy as cURL/fetch, export, replay and free-text search. Held copies are
// whole already; stored ones are read from IndexedDB a chunk at a time, in the order asked.
// A model without a body store keeps whole records, and every read here is then a no-op.
//
// Hazard: storage may hold a newer version than the last build analysed (a stream still
// arriving); a read shows the stored one beside the decoding of the analysed one.
import type { Analysis } from '../analysis.js';
import { isLean } from '../decode/lean-record.js';
import type { ExchangeRecord, Finding } from '../protocol.js';
import { PROTOCOL_VERSION } from '../protocol.js';
import { matchesFilter, parseFilter, searchText, type FilterTerm } from '../query/index.js';
import { exchangeView } from './exchange-view.js';
import { builtModel, type Built, type SessionModel } from './session-model.js';
import { listOf, listUpdate, recordsOf, type TextOf } from './session-list.js';
import type { ConversationList, ExchangeView, ListUpdate } from './types.js';

/** Records read from storage per transaction (bounds what a scan holds at once). */
const CHUNK = 500;
/** Search words whose matches a session remembers (typing refines the last one). */
const REMEMBERED_WORDS = 16;

function modelOf(b: Built): SessionModel {
  const m = builtModel(b);
  if (m === undefined) throw new Error('a build without its session model');
  return m;
}

/** The whole copies of `records` (as the analysis holds them), in the same order. */
export async function* wholeInChunks(model: SessionModel, records: readonly ExchangeRecord[]): AsyncGenerator<ExchangeRecord[]> {
  for (let i = 0; i < records.length; i += CHUNK) {
    const part = records.slice(i, i + CHUNK);
    const want = part.filter((r) => isLean(r) && model.held(r.id) === undefined && model.unstored(r.id) === undefined).map((r) => r.id);
    const got = want.length > 0 && model.bodies !== null ? await model.bodies.getExchanges(want) : [];
    const byId = new Map<string, ExchangeRecord>();
    for (const s of got) if (s !== undefined) byId.set(s.id, s);
    yield part.map((r) => {
      const h = model.held(r.id);
      if (h !== undefined) return { ...h, v: PROTOCOL_VERSION, seq: r.seq };
      if (!isLean(r)) return r;
      // Shown before it is written (capture/write-behind.ts): the model holds it whole.
      const u = model.unstored(r.id);
      if (u !== undefined && u.seq === r.seq) return u;
      // Gone from storage (a session cleared meanwhile): the lean copy is all there is.
      return byId.get(r.id) ?? r;
    });
  }
}

/** One exchange whole (the held copy when storage refused it), or undefined. */
export async function wholeRecord(model: SessionModel, id: string): Promise<ExchangeRecord | undefined> {
  const r = model.record(id);
  if (r === undefined) return undefined;
  for await (const [whole] of wholeInChunks(model, [r])) return whole;
  return r;
}

/** The detail pane of one exchange, its bodies read back; `full` lifts the size cut. */
export async function exchangeViewOf(b: Built, id: string, full = false): Promise<ExchangeView | null> {
  const lean = b.analysis.records.find((r) => r.id === id);
  const decoded = lean === undefined ? undefined : b.index.bySeq.get(lean.seq)?.decoded;
  if (lean === undefined || decoded === undefined) return null;
  for await (const [whole] of wholeInChunks(modelOf(b), [lean])) return exchangeView(whole, decoded, full);
  return null;
}

/** The analysis with whole records (replay re-sends recorded bodies). Transient: drop it after use. */
export async function withBodies(b: Built): Promise<Analysis> {
  const a = b.analysis;
  const records: ExchangeRecord[] = [];
  for await (const chunk of wholeInChunks(modelOf(b), a.records)) for (const r of chunk) records.push(r);
  return {
    records, conversations: a.conversations,
    get decoded() { return a.decoded; },
    get tokens() { return a.tokens; },
    get findings() { return a.findings; },
  };
}

interface WordMatches {
  /** seqs whose text holds the word. */
  hits: Set<number>;
  /** seq → the analysed record (one object per version) last checked for the word. */
  seen: Map<number, ExchangeRecord>;
}

const remembered = new WeakMap<SessionModel, Map<string, WordMatches>>();

function current(m: WordMatches, all: readonly ExchangeRecord[]): boolean {
  return all.every((r) => m.seen.get(r.seq) === r);
}

/**
 * Which exchanges hold each word, read from storage for the records not checked since they
 * last changed. A word that extends one already known (typing "hell", then "hello") only
 * re-reads that word's hits: text holding "hello" holds "hell".
 */
async function matchWords(b: Built, words: readonly string[], all: readonly ExchangeRecord[]): Promise<Map<string, Set<number>>> {
  const model = modelOf(b);
  let cache = remembered.get(model);
  if (cache === undefined) remembered.set(model, (cache = new Map()));
  const todo = new Map<number, { record: ExchangeRecord; words: string[] }>();
  const entries = new Map<string, WordMatches>();
  for (const w of words) {
    let m = cache.get(w);
    let candidates: readonly ExchangeRecord[];
    if (m === undefined) {
      m = { hits: new Set(), seen: new Map() };
      const base = [...cache].find(([k, e]) => w.includes(k) && current(e, all))?.[1];
      if (base !== undefined) {
        const narrowed: ExchangeRecord[] = [];
        for (const r of all) {
          if (base.hits.has(r.seq)) narrowed.push(r);
          else m.seen.set(r.seq, r);
        }
        candidates = narrowed;
      } else candidates = all;
    } else {
      const seen = m.seen;
      candidates = all.filter((r) => seen.get(r.seq) !== r);
    }
    cache.delete(w);
    cache.set(w, m);
    entries.set(w, m);
    for (const r of candidates) {
      m.hits.delete(r.seq);
      const t = todo.get(r.seq);
      if (t) t.words.push(w);
      else todo.set(r.seq, { record: r, words: [w] });
    }
  }
  while (cache.size > REMEMBERED_WORDS) cache.delete(cache.keys().next().value!);
  const pending = [...todo.values()];
  let at = 0;
  for await (const chunk of wholeInChunks(model, pending.map((t) => t.record))) {
    for (const whole of chunk) {
      const t = pending[at++];
      // One exchange's text, as searchText gives it inside its conversation's text.
      const text = searchText([whole], [b.index.bySeq.get(t.record.seq)?.decoded]).toLowerCase();
      for (const w of t.words) {
        const m = entries.get(w)!;
        m.seen.set(t.record.seq, t.record);
        if (text.includes(w)) m.hits.add(t.record.seq);
      }
    }
  }
  const out = new Map<string, Set<number>>();
  for (const [w, m] of entries) out.set(w, m.hits);
  return out;
}

/**
 * Answers free-text filter terms from bodies in storage: undefined when the model holds
 * whole records (or the filter has no free text). A conversation's text is its exchanges'
 * texts joined by line breaks, so a word holds in it exactly when it holds in one exchange's
 * text; the stand-in text lists the words that hold, which the filter then finds in it.
 * Hazard: that equivalence needs words without line breaks (the filter box has one line);
 * a word with one is matched per exchange.
 */
export async function searchTextOf(b: Built, filterText: string): Promise<TextOf | undefined> {
  if (modelOf(b).bodies === null || filterText.trim() === '') return undefined;
  const parsed = parseFilter(filterText);
  if (!parsed.ok) return undefined;
  const words = [...new Set(parsed.terms.flatMap((t) => (t.kind === 'text' && typeof t.text === 'string' ? [t.text.toLowerCase()] : [])))];
  if (words.length === 0) return undefined;
  const others = parsed.terms.filter((t) => t.kind !== 'text');
  const hits = await matchWords(b, words, others.length === 0 ? b.analysis.records : inScope(b, others));
  return (c) => words.filter((w) => c.exchanges.some((s) => hits.get(w)!.has(s))).join('\u0000');
}

/** The records of the conversations the filter's other terms let through: free text is
 *  checked last, so only theirs are ever asked about (and read). */
function inScope(b: Built, others: readonly FilterTerm[]): ExchangeRecord[] {
  const seqs = new Set<number>();
  for (const { conversation } of b.byId.values()) {
    const findings = b.index.findingsByConversation.get(conversation.id) ?? [];
    if (matchesFilter(others, { conversation, findings, text: () => '' })) for (const s of conversation.exchanges) seqs.add(s);
  }
  return b.analysis.records.filter((r) => seqs.has(r.seq));
}

/** listOf (view/session-model.ts) with free-text terms answered from storage. */
export async function searchedList(b: Built, filterText: string): Promise<ConversationList> {
  return listOf(b, filterText, await searchTextOf(b, filterText));
}

/** listUpdate (view/session-model.ts) with free-text terms answered from storage. */
export async function searchedListUpdate(b: Built, filterText: string, since: number | null): Promise<ListUpdate> {
  return listUpdate(b, filterText, since, await searchTextOf(b, filterText));
}

/** The shown conversations' records as analysed (lean) and their findings. */
export async function searchedRecords(b: Built, filterText: string): Promise<{ records: ExchangeRecord[]; findings: Finding[] }> {
  return recordsOf(b, filterText, await searchTextOf(b, filterText));
}

/** The shown conversations' records whole, in capture order, for export. */
export async function exportRecords(b: Built, filterText: string): Promise<{ records: ExchangeRecord[]; findings: Finding[] }> {
  const { records, findings } = await searchedRecords(b, filterText);
  const whole: ExchangeRecord[] = [];
  for await (const chunk of wholeInChunks(modelOf(b), records)) for (const r of chunk) whole.push(r);
  return { records: whole, findings };
}
