// Results of reading a capture file. Plain, cloneable data: they cross the worker boundary
// and the CLI prints them. (Candidates for protocol.ts; kept here until the lead moves them.)
import type { ExchangeRecord } from '../protocol.js';

/** The file formats importCapture reads. */
export type CaptureFormat = 'har' | 'jsonl';

/** One entry or line that could not be read: its position, a path to the bad part, and why. */
export interface SkippedEntry {
  /** HAR: index in `log.entries`; JSONL: 0-based line index. */
  index: number;
  /** e.g. `log.entries[3].request.url` or `line 7`. */
  where: string;
  message: string;
}

/** A problem that stops the import: what is wrong, where, and (in the message) what to do. */
export interface CaptureError {
  message: string;
  where: string;
}

/** What importCapture returns; expected failures are data, never throws. */
export type ImportOutcome =
  | {
      ok: true;
      format: CaptureFormat;
      exchanges: ExchangeRecord[];
      /** Entries left out (only non-empty when allowPartial was given). */
      skipped: SkippedEntry[];
      /** Things worth telling the user that did not stop the import (bodies kept elsewhere…). */
      notes: string[];
    }
  | { ok: false; format?: CaptureFormat; error: CaptureError; skipped: SkippedEntry[] };

/** Options for importCapture. */
export interface ImportOptions {
  /** Import the readable entries even when some could not be read. */
  allowPartial?: boolean;
  /** HAR record ids become `${idPrefix}-${seq}` (default prefix `x`; our own HAR keeps its ids unless this is given). */
  idPrefix?: string;
  /** Capture session to put every imported record in (overrides any session in the file). */
  session?: string;
}

/** Options shared by the exporters. */
export interface ExportOptions {
  /** Redact credentials (see sanitize.ts). HAR export defaults to true, JSONL to false. */
  sanitize?: boolean;
  /** Extra strings to redact wherever they occur, when sanitizing. */
  secrets?: readonly string[];
}
