// The project's own capture format: JSON Lines, one ExchangeRecord per line, optionally
// after a header line. Appenders (the relay) may write a record again as it progresses; the
// last line for an id wins, and its position is where that id first appeared.
import type { ExchangeRecord } from '../protocol.js';
import { isObj, isProblem, own } from './fields.js';
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

function parseLine(line: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(line) };
  } catch (e) {
    // RangeError (nesting deeper than the engine allows) lands here too.
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Reads JSONL text. Unreadable lines (bad JSON, a cut-off last line, a wrong shape) are
 * listed in `skipped`; the caller decides whether that is fatal.
 */
export function readJsonl(text: string): Extract<ImportOutcome, { ok: true }> & { recordLines: number } {
  const byId = new Map<string, ExchangeRecord>();
  const skipped: SkippedEntry[] = [];
  const notes: string[] = [];
  const lines = text.split('\n');
  let recordLines = 0;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (i === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (!line.trim()) continue;
    const where = `line ${i + 1}`;
    recordLines++;
    const parsed = parseLine(line);
    if ('error' in parsed) {
      const cut = i === lines.length - 1 || (i === lines.length - 2 && !lines[i + 1].trim());
      skipped.push({ index: i, where, message: `${cut ? 'the last line is cut off or ' : ''}not valid JSON: ${parsed.error}` });
      continue;
    }
    if (isJsonlHeader(parsed.value)) {
      recordLines--;
      const version = own(parsed.value as Record<string, unknown>, 'version');
      if (typeof version === 'number' && version > JSONL_VERSION) {
        notes.push(`This capture was written by a newer mrtr-inspector (format version ${version}); fields this version does not know were left out.`);
      }
      continue;
    }
    // Hazard: seq is reassigned below from first appearance, so pass a placeholder.
    const rec = readRecord(parsed.value, '', 0);
    if (isProblem(rec)) {
      skipped.push({ index: i, where: rec.where ? `${where}: ${rec.where}` : where, message: rec.message });
      continue;
    }
    // Map keeps first-insertion order, so replacing a value keeps the first position.
    byId.set(rec.id, rec);
  }
  const exchanges = [...byId.values()];
  for (let s = 0; s < exchanges.length; s++) exchanges[s].seq = s;
  return { ok: true, format: 'jsonl', exchanges, skipped, notes, recordLines };
}
