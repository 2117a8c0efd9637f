// A session's list as the page asks for it, read from one build of its model: the
// conversations a filter lets through, their rows with the status bar counts (whole, or only
// what changed since the page's copy), and the records behind them for export.
import type { Conversation, DecodedExchange, ExchangeRecord, Finding } from '../protocol.js';
import { matchesFilter, parseFilter, searchText, type FilterTerm } from '../query/index.js';
import type { Built } from './session-model.js';
import { callErrors } from './conversation-summary.js';
import type { ConversationList, ConversationSummary, FilterState, ListUpdate } from './types.js';

/** The records and decoded exchanges of one conversation, in capture order. */
function partsOf(c: Conversation, b: Built): { records: ExchangeRecord[]; decoded: DecodedExchange[] } {
  const records: ExchangeRecord[] = [];
  const decoded: DecodedExchange[] = [];
  for (const seq of c.exchanges) {
    const e = b.index.bySeq.get(seq);
    if (e) {
      records.push(e.record);
      decoded.push(e.decoded);
    }
  }
  return { records, decoded };
}

/** A conversation's searchable text (query/search-text.ts), or a stand-in that free-text
 *  terms match the same way (view/body-reads.ts, for a model whose bodies are in storage). */
export type TextOf = (c: Conversation) => string;

/** The conversations a filter text lets through (all of them for a blank or broken filter);
 *  `textOf` answers free-text terms (by default from the records' bodies held here). */
export function applyFilter(b: Built, filterText: string, textOf?: TextOf): { shown: Conversation[]; filter: FilterState; terms: FilterTerm[] } {
  const all = b.rows.map((r) => b.byId.get(r.id)!.conversation);
  if (filterText.trim() === '') return { shown: all, filter: { ok: true }, terms: [] };
  const parsed = parseFilter(filterText);
  if (!parsed.ok) return { shown: all, filter: { ok: false, message: parsed.error.message, at: parsed.error.at }, terms: [] };
  const shown = all.filter((conversation) =>
    matchesFilter(parsed.terms, {
      conversation,
      findings: b.index.findingsByConversation.get(conversation.id) ?? [],
      text: () => {
        if (textOf) return textOf(conversation);
        const p = partsOf(conversation, b);
        return searchText(p.records, p.decoded);
      },
    }));
  return { shown, filter: { ok: true }, terms: parsed.terms };
}

/** The list answer: rows of the shown conversations and the status bar counts. */
export function listOf(b: Built, filterText: string, textOf?: TextOf): ConversationList {
  const { shown, filter, terms } = applyFilter(b, filterText, textOf);
  const filtered = terms.length > 0;
  const items = shown.map((c) => b.byId.get(c.id)!.row);
  let exchanges = 0;
  let errors = 0;
  let warnings = 0;
  let expected = 0;
  for (const row of items) {
    // A Console experiment's findings are its result, not the server's or the client's fault.
    const own = callErrors(row);
    const t = row.expected;
    errors += own.error;
    warnings += own.warning;
    if (t) expected += t.error + t.warning;
  }
  if (filtered) {
    const seen = new Set<number>();
    for (const c of shown) for (const s of c.exchanges) seen.add(s);
    exchanges = seen.size;
  } else {
    exchanges = b.exchanges;
    for (const f of b.loose) {
      if (f.severity === 'error') errors += 1;
      else if (f.severity === 'warning') warnings += 1;
    }
  }
  return {
    items,
    filter,
    stats: { conversations: items.length, exchanges, errors, warnings, totalConversations: b.rows.length, filtered, expected, checking: b.unchecked },
  };
}

/**
 * The list for a page that holds the unfiltered list as of build `since`: only the rows
 * changed after it (and the ids gone), or the whole list when that cannot be told.
 */
export function listUpdate(b: Built, filterText: string, since: number | null, textOf?: TextOf): ListUpdate {
  const delta = since !== null && filterText.trim() === '' ? b.changesSince(since) : null;
  if (delta === null || since === null) return { kind: 'whole', epoch: b.epoch, list: listOf(b, filterText, textOf) };
  const changed: ConversationSummary[] = [];
  for (const id of delta.changed) {
    const hit = b.byId.get(id);
    if (hit) changed.push(hit.row);
  }
  // The unfiltered counts, as `listOf(b, '')` gives them, without walking every row.
  let errors = b.rowCounts.errors;
  let warnings = b.rowCounts.warnings;
  for (const f of b.loose) {
    if (f.severity === 'error') errors += 1;
    else if (f.severity === 'warning') warnings += 1;
  }
  const stats = { conversations: b.rows.length, exchanges: b.exchanges, errors, warnings, totalConversations: b.rows.length, filtered: false, expected: b.rowCounts.expected, checking: b.unchecked };
  return { kind: 'delta', epoch: b.epoch, since, changed, removed: [...delta.removed], stats, filter: { ok: true } };
}

/** The records of the shown conversations (for exporting a filtered view), in capture order. */
export function recordsOf(b: Built, filterText: string, textOf?: TextOf): { records: ExchangeRecord[]; findings: Finding[] } {
  const { shown, terms } = applyFilter(b, filterText, textOf);
  if (terms.length === 0) return { records: [...b.analysis.records], findings: b.analysis.findings };
  const seqs = new Set<number>();
  const ids = new Set<string>();
  for (const c of shown) {
    ids.add(c.id);
    for (const s of c.exchanges) seqs.add(s);
  }
  return {
    records: b.analysis.records.filter((r) => seqs.has(r.seq)),
    findings: b.analysis.findings.filter((f) => f.conversation !== null && ids.has(f.conversation)),
  };
}
