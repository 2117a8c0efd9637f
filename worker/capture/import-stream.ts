// A capture file imported as it is read, for hosts that read it asynchronously in pieces
// (the page reads a Blob's stream in the analysis worker): the same readers as the CLI
// (HarChunks, JsonlStream), records handed on in batches as they are read, so the host can
// store and show them early, and a cancel honoured between pieces.
//
// Only the plain, healthy case is streamed. Anything unusual (not HAR or our JSONL, an entry
// that is not JSON, skipped entries without allowPartial) ends `declined`: the host then
// undoes what it stored and reads the whole text with importCapture, for its precise errors
// and the "import the readable part?" question.
import type { ExchangeRecord } from '../protocol.js';
import { isObj, own } from './fields.js';
import { finish, HarChunks } from './import.js';
import { isJsonlHeader, JsonlStream } from './jsonl.js';
import type { ImportOptions, ImportOutcome } from './types.js';

/** Options for importCaptureStream. */
export interface StreamImportOptions extends ImportOptions {
  /** Records per batch handed to `onBatch` (default 2000): the first batch's size. */
  batchSize?: number;
  /** How much bigger each batch is than the one before (default 1: all the same size). */
  batchGrowth?: number;
  /** The most records a batch grows to (default: no bound). */
  batchMax?: number;
  /** Polled between pieces; true stops the import (`cancelled`). */
  cancelled?: () => boolean;
  /** Told which reader the file's start chose, once: from then on, a JSONL file is only
   *  declined when it holds no record at all (so a host keeping the text for a careful
   *  re-read can let it go). */
  chosen?: (format: 'har' | 'jsonl') => void;
}

/** How a streamed import ended. */
export type StreamImportEnd =
  | { kind: 'done'; outcome: Extract<ImportOutcome, { ok: true }> }
  | { kind: 'declined' }
  | { kind: 'cancelled' };

// JSONL when the first line is one of our records or the header by itself; a HAR's first
// line is `{` alone (pretty-printed) or the whole file (minified).
const FIRST_LINE_LIMIT = 1 << 20;
/** Which reader a file's start calls for; null while more text is needed to tell (`ended`: no more comes). */
export function sniff(head: string, ended: boolean): 'har' | 'jsonl' | 'other' | null {
  const text = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  const start = text.search(/\S/);
  if (start < 0) return ended ? 'other' : null;
  if (text.charCodeAt(start) !== 123) return 'other'; // '{'
  const nl = text.indexOf('\n', start);
  if (nl < 0 && !ended && text.length < FIRST_LINE_LIMIT) return null;
  const line = nl < 0 ? text.slice(start) : text.slice(start, nl);
  try {
    const v: unknown = JSON.parse(line);
    if (isObj(v) && own(v, 'log') === undefined && (isJsonlHeader(v) || (own(v, 'id') !== undefined && own(v, 'request') !== undefined))) return 'jsonl';
  } catch {
    // not a whole object on one line: a HAR (or something the careful path will name)
  }
  return 'har';
}

/**
 * Imports the pieces of one capture file (decoded as one UTF-8 stream). `onBatch` gets the
 * records read, in order, and is awaited (so storage paces the reading). A JSONL id read
 * again comes again with the seq it first had: the later copy replaces the earlier one.
 */
export async function importCaptureStream(
  chunks: AsyncIterable<string>, opts: StreamImportOptions, onBatch: (records: ExchangeRecord[]) => Promise<void>,
): Promise<StreamImportEnd> {
  let size = opts.batchSize ?? 2000;
  let batch: ExchangeRecord[] = [];
  const take = (r: ExchangeRecord) => void batch.push(r);
  const flush = async () => {
    if (!batch.length) return;
    const b = batch;
    batch = [];
    size = Math.min(opts.batchMax ?? Infinity, Math.max(1, Math.round(size * (opts.batchGrowth ?? 1))));
    await onBatch(b);
  };
  let format: 'har' | 'jsonl' | 'other' | null = null;
  let head = '';
  let har: HarChunks | null = null;
  const byId = new Map<string, ExchangeRecord>();
  let jsonl: JsonlStream | null = null;
  const feed = (text: string): boolean => (har ? har.push(text) : (jsonl!.push(text), true));
  const begin = (f: 'har' | 'jsonl') => {
    opts.chosen?.(f);
    if (f === 'har') har = new HarChunks(opts, take);
    else jsonl = new JsonlStream((r) => {
      if (opts.session !== undefined) r.session = opts.session;
      byId.set(r.id, r);
      take(r);
    });
  };

  for await (const piece of chunks) {
    if (opts.cancelled?.()) return { kind: 'cancelled' };
    if (format === null) {
      head += piece;
      format = sniff(head, false);
      if (format === null) continue;
      if (format === 'other') return { kind: 'declined' };
      begin(format);
      if (!feed(head)) return { kind: 'declined' };
      head = '';
    } else if (!feed(piece)) {
      return { kind: 'declined' };
    }
    if (batch.length >= size) await flush();
  }
  if (format === null) {
    format = sniff(head, true);
    if (format === 'other' || format === null) return { kind: 'declined' };
    begin(format);
    if (!feed(head)) return { kind: 'declined' };
  }
  let outcome: ImportOutcome | null;
  if (har) {
    outcome = (har as HarChunks).end();
  } else {
    const read = (jsonl as unknown as JsonlStream).end();
    outcome = read.recordLines === 0 ? null : finish('jsonl', [...byId.values()], read.skipped, read.notes, read.recordLines, opts);
  }
  if (!outcome || !outcome.ok) return { kind: 'declined' };
  await flush();
  return { kind: 'done', outcome };
}

/**
 * A byte stream (a picked file's, a response body's) as text pieces for importCaptureStream,
 * decoded as one UTF-8 stream. `onBytes` sees each chunk before it is decoded (to count it,
 * or keep it for a careful re-read).
 */
export async function* decodedPieces(stream: ReadableStream<Uint8Array>, onBytes?: (bytes: Uint8Array) => void): AsyncGenerator<string> {
  const reader = stream.getReader();
  const utf8 = new TextDecoder('utf-8');
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onBytes?.(value);
      const s = utf8.decode(value, { stream: true });
      if (s) yield s;
    }
    const rest = utf8.decode();
    if (rest) yield rest;
  } finally {
    reader.releaseLock();
  }
}
