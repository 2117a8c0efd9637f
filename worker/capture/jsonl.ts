// The project's own capture format: JSON Lines, one ExchangeRecord per line, optionally
// after a header line. Appenders (the relay) may write a record again as it progresses; the
// last line for an id wins, and its position is where that id first appeared.
import type { ExchangeRecord } from '../protocol.js';
import { interner, isObj, isProblem, own } from './fields.js';
import { readRecord } from './record-read.js';
import { sanitizeRecord } from './sanitize.js';
import type { ExportOptions, ImportOutcome, SkippedEntry } from './types.js';

/** The `kind` of the optional first line. */
export const JSONL_KIND = 'mrtr-inspector-capture';
/** The JSONL format version this code writes and reads. */
export const JSONL_VERSION = 1;

/** The optional header line. */
export interface JsonlHeader {
  kind: typeof JSONL_KIND;
  version: number;
  createdAt: string;
}

/** One record as one newline-terminated line, for appenders. */
export function jsonlLine(record: ExchangeRecord): string {
  return JSON.stringify(record) + '\n';
}

/** A header line followed by one line per record (redacted when `sanitize` is true; default false). */
export function exportJsonl(records: readonly ExchangeRecord[], opts: ExportOptions & { createdAt?: string } = {}): string {
  const header: JsonlHeader = { kind: JSONL_KIND, version: JSONL_VERSION, createdAt: opts.createdAt ?? new Date().toISOString() };
  // Built as a list and joined once: no quadratic string growth on big captures.
  const lines = [JSON.stringify(header) + '\n'];
  for (const r of records) lines.push(jsonlLine(opts.sanitize ? sanitizeRecord(r, opts.secrets) : r));
  return lines.join('');
}

/** True when a parsed value is our header line. */
export function isJsonlHeader(v: unknown): boolean {
  return isObj(v) && own(v, 'kind') === JSONL_KIND;
}

/** What a JsonlStream read, once ended. */
export interface JsonlRead {
  /** Distinct ids read (each record's seq is its id's first position). */
  count: number;
  skipped: SkippedEntry[];
  notes: string[];
  /** Lines that held a record or were meant to (not blank, not the header). */
  recordLines: number;
}

/**
 * The longest JSONL line read, in characters. A record the relay writes holds at most 4 MiB
 * of each body (and wrap's lines are bounded alike); a longer line is skipped, with a
 * message, rather than joined into one string that could pass the engine's string limit.
 */
export const MAX_JSONL_LINE_CHARS = 128 * 1024 * 1024;

/** Options for JsonlStream. */
export interface JsonlStreamOptions {
  /** The longest line read (default MAX_JSONL_LINE_CHARS); longer ones are skipped. */
  maxLineChars?: number;
}

/**
 * Reads JSONL text pushed in pieces (a file as it is read, or one whole string). Each
 * record goes to `onRecord` as its line completes; a later line for an id that was already
 * read is handed on again with the first one's seq, to replace it (last line wins).
 *
 * Hazard: whether a bad line is "cut off" depends on what follows it (it is the last line,
 * or only blank text follows), so the newest complete line is held back until the next
 * one arrives or the text ends. A line past the limit is never held: only its length is
 * counted until its newline (a hostile 1 GB line costs nothing but the scan).
 */
export class JsonlStream {
  readonly #onRecord: (record: ExchangeRecord) => void;
  readonly #max: number;
  readonly #seqOf = new Map<string, number>();
  readonly #skipped: SkippedEntry[] = [];
  readonly #notes: string[] = [];
  /** One copy of each short string records repeat (URL, method, header names and values):
   *  JSON.parse makes a new one per line, and a read backlog is held whole until written. */
  readonly #intern = interner();
  #carry = '';
  /** Characters of the overlong line being skipped, or -1 when none is. */
  #over = -1;
  /** The newest complete line (its text, or its length past the limit), or null; and its index. */
  #held: string | number | null = null;
  #heldIndex = 0;
  #index = 0;
  #recordLines = 0;

  constructor(onRecord: (record: ExchangeRecord) => void, opts: JsonlStreamOptions = {}) {
    this.#onRecord = onRecord;
    this.#max = opts.maxLineChars ?? MAX_JSONL_LINE_CHARS;
  }

  push(text: string): void {
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      // A line is its text, or (past the limit) only its length.
      let line: string | number;
      const more = nl - start;
      if (this.#over >= 0) line = this.#over + more;
      else if (this.#carry.length + more > this.#max) line = this.#carry.length + more;
      else line = this.#carry === '' ? text.slice(start, nl) : this.#carry + text.slice(start, nl);
      this.#carry = '';
      this.#over = -1;
      start = nl + 1;
      if (this.#held !== null) this.#line(this.#held, this.#heldIndex, false);
      this.#held = line;
      this.#heldIndex = this.#index++;
    }
    const rest = text.length - start;
    if (this.#over >= 0) this.#over += rest;
    else if (this.#carry.length + rest > this.#max) {
      this.#over = this.#carry.length + rest;
      this.#carry = '';
    } else this.#carry += text.slice(start);
  }

  end(): JsonlRead {
    const last: string | number = this.#over >= 0 ? this.#over : this.#carry;
    this.#carry = '';
    this.#over = -1;
    if (this.#held !== null) this.#line(this.#held, this.#heldIndex, typeof last === 'string' && !last.trim());
    this.#held = null;
    this.#line(last, this.#index++, true);
    return { count: this.#seqOf.size, skipped: this.#skipped, notes: this.#notes, recordLines: this.#recordLines };
  }

  #line(raw: string | number, i: number, cut: boolean): void {
    if (typeof raw === 'number') {
      this.#recordLines++;
      const size = (n: number) => (n >= 1024 * 1024 ? `${Math.floor(n / (1024 * 1024))} MiB` : `${n} characters`);
      this.#skipped.push({ index: i, where: `line ${i + 1}`, message: `the line is ${size(raw)} long, more than the ${size(this.#max)} one record may take; it was skipped unread` });
      return;
    }
    let line = raw;
    if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1); // CR of a CRLF
    if (i === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    // A record's line starts with its brace: only other lines need the (copying) trim.
    if (line.charCodeAt(0) !== 123 && !line.trim()) return;
    this.#recordLines++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      // RangeError (nesting deeper than the engine allows) lands here too.
      const error = e instanceof Error ? e.message : String(e);
      this.#skipped.push({ index: i, where: `line ${i + 1}`, message: `${cut ? 'the last line is cut off or ' : ''}not valid JSON: ${error}` });
      return;
    }
    if (isJsonlHeader(value)) {
      this.#recordLines--;
      const version = own(value as Record<string, unknown>, 'version');
      if (typeof version === 'number' && version > JSONL_VERSION) {
        this.#notes.push(`This capture was written by a newer mrtr-inspector (format version ${version}); fields this version does not know were left out.`);
      }
      return;
    }
    // Hazard: seq is set below from the id's first appearance, so pass a placeholder.
    const rec = readRecord(value, '', 0, this.#intern);
    if (isProblem(rec)) {
      const where = `line ${i + 1}`;
      this.#skipped.push({ index: i, where: rec.where ? `${where}: ${rec.where}` : where, message: rec.message });
      return;
    }
    const seq = this.#seqOf.get(rec.id) ?? this.#seqOf.size;
    this.#seqOf.set(rec.id, seq);
    rec.seq = seq;
    this.#onRecord(rec);
  }
}

/**
 * Reads JSONL text. Unreadable lines (bad JSON, a cut-off last line, a wrong shape) are
 * listed in `skipped`; the caller decides whether that is fatal.
 */
export function readJsonl(text: string): Extract<ImportOutcome, { ok: true }> & { recordLines: number } {
  // Map keeps first-insertion order, so replacing a value keeps the first position.
  const byId = new Map<string, ExchangeRecord>();
  const stream = new JsonlStream((r) => byId.set(r.id, r));
  stream.push(text);
  const got = stream.end();
  return { ok: true, format: 'jsonl', exchanges: [...byId.values()], skipped: got.skipped, notes: got.notes, recordLines: got.recordLines };
}
