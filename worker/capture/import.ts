// The one entry point for capture files: detects HAR or JSONL, reads every entry it can,
// and returns either the exchanges or a typed error saying what is wrong, where, and what
// to do. Entry-level damage is fatal unless the caller passes allowPartial.
import type { ExchangeRecord } from '../protocol.js';
import { interner, isObj, own } from './fields.js';
import { readHarEntry, type EntryNote } from './har-import.js';
import { splitHarEntries, type HarSplit } from './har-entries.js';
import { HarEntryStream } from './har-stream.js';
import { scanJson, type JsonScan } from './json-scan.js';
import { isJsonlHeader, readJsonl } from './jsonl.js';
import type { CaptureFormat, ImportOptions, ImportOutcome, SkippedEntry } from './types.js';

const NOTE_TEXT: Record<EntryNote['kind'], string> = {
  'file-body': 'Some bodies are stored in separate files beside the HAR (Playwright recordHar with content "attach"), which an import cannot read; they were imported as absent. Record with recordHar: { content: "embed" } to keep them',
  'no-body': 'Some response bodies were not saved in the HAR (content.size > 0 but no content.text); they were imported as absent',
  'bad-base64': 'Some base64 bodies could not be decoded; they were imported as absent',
  'encoding': 'Some bodies have a content.encoding other than base64; their text was kept as it is',
  'form-params': 'Some request bodies were given only as multipart or malformed postData.params; they were imported as absent',
};

function groupNotes(notes: EntryNote[]): string[] {
  const byKind = new Map<EntryNote['kind'], string[]>();
  for (const n of notes) {
    const list = byKind.get(n.kind) ?? [];
    list.push(n.where);
    byKind.set(n.kind, list);
  }
  return [...byKind].map(([kind, wheres]) => {
    const shown = wheres.slice(0, 3).join(', ');
    return `${NOTE_TEXT[kind]} (${shown}${wheres.length > 3 ? ` and ${wheres.length - 3} more` : ''}).`;
  });
}

function parse(text: string): { value: unknown } | { error: unknown } {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    // SyntaxError, or RangeError in an engine whose parser recurses on deep nesting.
    return { error: e };
  }
}

/** Damage outside any entry (e.g. after log.entries): what and where. */
interface Damage { text: string; where: string }

/** The verdict once entries are read: fatal when anything was skipped without allowPartial. */
// Exported for the streaming import (import-stream.ts), which reaches the same verdicts.
export function finish(
  format: CaptureFormat, exchanges: ExchangeRecord[], skipped: SkippedEntry[], notes: string[],
  total: number, opts: ImportOptions, damage?: Damage,
): ImportOutcome {
  if ((skipped.length || damage) && !opts.allowPartial) {
    const noun = format === 'har' ? (total === 1 ? 'entry' : 'entries') : total === 1 ? 'line' : 'lines';
    const first = skipped[0];
    const message = first
      ? `${skipped.length} of ${total} ${noun} could not be read; the first: ${first.where}: ${first.message}. `
        + `The other ${exchanges.length} can be imported without ${skipped.length === 1 ? 'it' : 'them'}${damage ? ` (also, ${damage.text})` : ''}.`
      : `${damage!.text}. All ${exchanges.length} ${noun} before it are readable and can be imported.`;
    return { ok: false, format, error: { message, where: first ? first.where : damage!.where }, skipped };
  }
  if (damage) notes.push(`${damage.text}; it was ignored.`);
  return { ok: true, format, exchanges, skipped, notes };
}

interface Acc { exchanges: ExchangeRecord[]; skipped: SkippedEntry[]; notes: EntryNote[]; idMap: Map<string, string>; intern: (s: string) => string }
const newAcc = (): Acc => ({ exchanges: [], skipped: [], notes: [], idMap: new Map(), intern: interner() });

/** Re-ids derivedFrom links when HAR ids were rewritten with idPrefix. */
function remapDerived(records: ExchangeRecord[], idMap: Map<string, string>): void {
  if (idMap.size === 0) return;
  for (const r of records) {
    const to = r.derivedFrom !== undefined ? idMap.get(r.derivedFrom) : undefined;
    if (to !== undefined) r.derivedFrom = to;
  }
}

function readEntries(entries: readonly unknown[], offset: number, opts: ImportOptions, acc: Acc): void {
  const entryOpts = { idPrefix: opts.idPrefix, session: opts.session, intern: acc.intern };
  for (let i = 0; i < entries.length; i++) {
    const got = readHarEntry(entries[i], offset + i, entryOpts);
    if ('skipped' in got) { acc.skipped.push(got.skipped); continue; }
    acc.exchanges.push(got.record);
    acc.notes.push(...got.notes);
    const e = entries[i];
    const m = isObj(e) ? own(e, '_mrtr') : undefined;
    const oldId = isObj(m) ? own(m, 'id') : undefined;
    if (typeof oldId === 'string' && oldId !== got.record.id) acc.idMap.set(oldId, got.record.id);
  }
}

/** HAR from a parsed document. */
function importHar(entries: readonly unknown[], opts: ImportOptions): ImportOutcome {
  const acc = newAcc();
  readEntries(entries, 0, opts, acc);
  remapDerived(acc.exchanges, acc.idMap);
  return finish('har', acc.exchanges, acc.skipped, groupNotes(acc.notes), entries.length, opts);
}

/**
 * HAR parsed one entry at a time (see har-entries.ts): the memory peak is one entry's
 * tree, not the whole document's. Null when anything is off, so the caller falls back to
 * parsing the whole document (and its precise errors).
 */
function importHarSpans(text: string, split: HarSplit, opts: ImportOptions): ImportOutcome | null {
  const v = split.envelope;
  const log = isObj(v) ? own(v, 'log') : undefined;
  if (!isObj(log) || !Array.isArray(own(log, 'entries'))) return null;
  const acc = newAcc();
  const one: unknown[] = [undefined];
  for (let i = 0; i < split.spans.length; i++) {
    const got = parse(text.slice(split.spans[i][0], split.spans[i][1]));
    if (!('value' in got)) return null;
    one[0] = got.value;
    readEntries(one, i, opts, acc);
  }
  remapDerived(acc.exchanges, acc.idMap);
  return finish('har', acc.exchanges, acc.skipped, groupNotes(acc.notes), split.spans.length, opts);
}

/**
 * importCapture for a HAR read in pieces (the CLI reads files this way; see har-stream.ts):
 * the outcome importCapture gives for the whole text, without ever holding it whole. The
 * pieces must come from one streaming decode of the file. Null when the fast path declines
 * (not a plain HAR, an entry that is not JSON, …): the caller then reads the whole text
 * and calls importCapture, which gives the precise errors. `onRecord` sees each record as
 * soon as it is read (its index in `exchanges`), so a host can work on it while its
 * strings are young; after a decline, its calls are void.
 */
export function importHarChunks(chunks: Iterable<string>, opts: ImportOptions = {}, onRecord?: (record: ExchangeRecord, index: number) => void): ImportOutcome | null {
  const har = new HarChunks(opts, onRecord);
  for (const chunk of chunks) if (!har.push(chunk)) return null;
  return har.end();
}

/**
 * importHarChunks as an object, for hosts whose pieces arrive asynchronously (a Blob's
 * stream in the page): `push` each piece (false: declined, stop), then `end`.
 */
export class HarChunks {
  readonly #acc = newAcc();
  readonly #opts: ImportOptions;
  readonly #stream: HarEntryStream;

  /** `maxPending`: see MAX_HAR_PENDING_CHARS (har-stream.ts). */
  constructor(opts: ImportOptions = {}, onRecord?: (record: ExchangeRecord, index: number) => void, maxPending?: number) {
    this.#opts = opts;
    const acc = this.#acc;
    const one: unknown[] = [undefined];
    this.#stream = new HarEntryStream((value, i) => {
      one[0] = value;
      const before = acc.exchanges.length;
      readEntries(one, i, opts, acc);
      if (onRecord && acc.exchanges.length > before) onRecord(acc.exchanges[before], before);
      return true;
    }, maxPending);
  }

  push(chunk: string): boolean {
    return this.#stream.push(chunk);
  }

  /** The outcome, or null when the fast path declined (see importHarChunks). */
  end(): ImportOutcome | null {
    const end = this.#stream.end();
    if (end === null) return null;
    const log = isObj(end.envelope) ? own(end.envelope, 'log') : undefined;
    if (!isObj(log) || !Array.isArray(own(log, 'entries'))) return null;
    const acc = this.#acc;
    remapDerived(acc.exchanges, acc.idMap);
    return finish('har', acc.exchanges, acc.skipped, groupNotes(acc.notes), end.entries, this.#opts);
  }
}

/** HAR that JSON.parse refused but whose `log.entries` the scanner found: salvage complete entries. */
function salvageHar(text: string, scan: JsonScan, opts: ImportOptions): ImportOutcome {
  const p = scan.problem!;
  const at = `line ${p.line}, column ${p.column}`;
  const acc = newAcc();
  const entries: unknown[] = [];
  for (const [s, e] of scan.entrySpans) {
    const got = parse(text.slice(s, e));
    entries.push('value' in got ? got.value : undefined);
  }
  readEntries(entries, 0, opts, acc);
  remapDerived(acc.exchanges, acc.idMap);
  let damage: Damage | undefined;
  let total = entries.length;
  if (scan.problemInEntries) {
    total++;
    acc.skipped.push({
      index: entries.length,
      where: `log.entries[${entries.length}]`,
      message: `the file is cut off or broken inside this entry (${at}: ${p.reason}); any entries after it are lost`,
    });
  } else {
    damage = { text: `the file is broken after log.entries (${at}: ${p.reason})`, where: at };
  }
  return finish('har', acc.exchanges, acc.skipped, groupNotes(acc.notes), total, opts, damage);
}

/** True when the text looks like JSON Lines: one of its first lines is a JSON object by itself. */
function looksLikeJsonl(text: string): boolean {
  let start = 0;
  for (let n = 0; n < 5 && start < text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (!line) { n--; continue; }
    const got = parse(line);
    if ('value' in got && isObj(got.value)) return true;
  }
  return false;
}

/**
 * Reads a capture file (HAR 1.2 or our JSONL). Never throws: problems come back as
 * `{ ok: false, error }` with a message saying what to do.
 */
export function importCapture(text: string, opts: ImportOptions = {}): ImportOutcome {
  if (typeof text !== 'string') return { ok: false, error: { message: 'The capture must be text.', where: 'file' }, skipped: [] };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!body.trim()) {
    return { ok: false, error: { message: 'The file is empty. Choose a HAR exported from a browser or a JSONL capture from mrtr-inspector.', where: 'file' }, skipped: [] };
  }
  const split = body.charCodeAt(0) === 123 ? splitHarEntries(body) : null; // '{'
  if (split) {
    const fast = importHarSpans(body, split, opts);
    if (fast) return fast;
  }
  const whole = parse(body);
  if ('value' in whole) {
    const v = whole.value;
    if (isObj(v) && own(v, 'log') !== undefined) {
      const log = own(v, 'log');
      const entries = isObj(log) ? own(log, 'entries') : undefined;
      if (!Array.isArray(entries)) {
        return { ok: false, format: 'har', error: { message: 'This looks like a HAR but log.entries is missing or not a list. Export the HAR again ("Save all as HAR with content").', where: 'log.entries' }, skipped: [] };
      }
      return importHar(entries, opts);
    }
    if (isObj(v) && (isJsonlHeader(v) || (own(v, 'id') !== undefined && own(v, 'request') !== undefined))) {
      return jsonlOutcome(body, opts);
    }
    return { ok: false, error: { message: 'This is JSON but not a capture: it has no log.entries (HAR) and is not an mrtr-inspector JSONL record. Export a HAR from the browser\'s Network panel, or a JSONL capture from mrtr-inspector.', where: 'log.entries' }, skipped: [] };
  }
  if (looksLikeJsonl(body)) return jsonlOutcome(body, opts);
  const scan = scanJson(body);
  // Salvage only when something is salvageable; otherwise the file is simply not JSON.
  if (scan.problem && scan.entrySpans.length) return salvageHar(body, scan, opts);
  const p = scan.problem;
  if (!p) {
    // Valid JSON that the engine still refused: nesting deeper than its parser's stack.
    const where = `line ${scan.deepest.line}, column ${scan.deepest.column}`;
    return { ok: false, error: { message: `The file nests JSON ${scan.deepest.depth} levels deep (deepest at ${where}), more than can be read here. A capture never nests this deep; check where the file came from.`, where }, skipped: [] };
  }
  const where = `line ${p.line}, column ${p.column}`;
  const why = p.reason;
  return {
    ok: false,
    error: { message: `The file is not valid JSON or JSON Lines (${where}: ${why}). Check that it is a complete HAR or JSONL file; a cut-off download or copy ends early.`, where },
    skipped: [],
  };
}

function jsonlOutcome(text: string, opts: ImportOptions): ImportOutcome {
  const got = readJsonl(text);
  if (opts.session !== undefined) for (const r of got.exchanges) r.session = opts.session;
  const total = got.recordLines;
  if (total === 0) {
    return { ok: false, format: 'jsonl', error: { message: 'The JSONL file has a header but no records.', where: 'line 2' }, skipped: [] };
  }
  return finish('jsonl', got.exchanges, got.skipped, got.notes, total, opts);
}
