// What `lint` and `replay` both do before their own work: read the --key values and the
// capture file, with the same messages for the same mistakes. Problems come back as the
// text to print after "mrtr-inspector: " (exit status 2); skipped entries are reported here.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { importCapture, type ImportOutcome } from '../worker/capture/index.js';
import { finish, HarChunks } from '../worker/capture/import.js';
import { sniff } from '../worker/capture/import-stream.js';
import { JsonlStream } from '../worker/capture/jsonl.js';
import { MAX_HAR_PENDING_CHARS } from '../worker/capture/har-stream.js';
import { parseKey, type TokenKey } from '../worker/tokens/index.js';
import type { ExchangeRecord } from '../worker/protocol.js';
import { terminalSafe } from '../worker/report/terminal-safe.js';

/** Writes one message to stderr, prefixed with the tool's name. Messages echo paths, names
 *  and parse errors from the input, so control characters in them are shown escaped. */
export const say = (msg: string): void => void process.stderr.write(`mrtr-inspector: ${terminalSafe(msg)}\n`);

/** The parsed --key values, or the message naming the first bad one (never its text). */
export function parseKeys(texts: readonly string[]): { ok: true; keys: TokenKey[] } | { ok: false; message: string } {
  const keys: TokenKey[] = [];
  for (const [i, k] of texts.entries()) {
    const parsed = parseKey(k);
    if (!parsed.ok) return { ok: false, message: `--key number ${i + 1}: ${parsed.error}` };
    keys.push(parsed.key);
  }
  return { ok: true, keys };
}

const cannotRead = (path: string, err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
  return { ok: false as const, message: `cannot read ${path}: ${why}` };
};

/** The file's text in pieces of 64 KB, read through one reused buffer and decoded as one
 *  UTF-8 stream (as readFile would decode it whole). Small pieces on purpose: a piece lives
 *  while its ~40 entries are read, and at 1 MB it would outlive young-generation GCs and
 *  be copied into the old heap, where it stays as garbage (+70 MB peak on 100k exchanges).
 *  A read error ends the pieces and is left in `failed`. */
function* chunksOf(path: string, failed: { error?: unknown }): Generator<string> {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.allocUnsafe(1 << 16);
    const utf8 = new StringDecoder('utf8');
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0;) yield utf8.write(buf.subarray(0, n));
    yield utf8.end();
  } catch (err) {
    failed.error = err;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Bounds on what reading one capture may hold; tests pass small ones. */
export interface ReadLimits {
  /** The longest JSONL line or pending HAR entry read, in characters (default 128 Mi). */
  maxLineChars?: number;
  /** The biggest file read whole as one string, when it cannot be streamed (default 256 MiB). */
  wholeReadBytes?: number;
}

/** Files bigger than this are only streamed: a whole-file string nears the engine's limit. */
export const WHOLE_READ_BYTES = 256 * 1024 * 1024;

/**
 * Reads and imports a capture file; says on stderr which entries were skipped. `onRecord`
 * is called with each record and its index as it is read (for a read that is given up,
 * again from index 0; a JSONL id read again, again with its first index), so that in the
 * end it has seen exactly the exchanges returned. Never throws on bad input: a file too
 * big or too strange to read is a message (exit status 2), whatever its size.
 */
export async function readCapture(
  path: string, allowPartial: boolean, onRecord?: (record: ExchangeRecord, index: number) => void, limits: ReadLimits = {},
): Promise<Extract<ImportOutcome, { ok: true }> | { ok: false; message: string }> {
  let imported: ImportOutcome | { ok: false; message: string };
  try {
    imported = await readAny(path, allowPartial, onRecord, limits);
  } catch (err) {
    // The engine's own limits (a string or array past its size) are the input's fault.
    if (!(err instanceof RangeError)) throw err;
    return { ok: false, message: `${path}: cannot be read: ${err.message}. The file holds more than one read can take; split it, or check where it came from.` };
  }
  if ('message' in imported) return imported;
  if (!imported.ok) {
    // The worker's message says what is readable; how to import it anyway is this host's to say.
    const how = imported.skipped.length || /can be imported/.test(imported.error.message) ? ' Pass --allow-partial to import them.' : '';
    return { ok: false, message: `${path}: ${imported.error.message}${how}${imported.error.where ? ` (at ${imported.error.where})` : ''}` };
  }
  for (const s of imported.skipped) say(`skipped ${s.where}: ${s.message}`);
  return imported;
}

// Streams our JSONL and plain HARs as they are read: neither is ever held whole, so a file of
// any size is read in bounded pieces (a line past the limit is skipped). Anything else (a
// damaged or unusual HAR) is read whole for importCapture's precise errors, when it fits.
async function readAny(
  path: string, allowPartial: boolean, onRecord: ((record: ExchangeRecord, index: number) => void) | undefined, limits: ReadLimits,
): Promise<ImportOutcome | { ok: false; message: string }> {
  const failed: { error?: unknown } = {};
  const chunks = chunksOf(path, failed);
  let head = '';
  let format: ReturnType<typeof sniff> = null;
  // Pulled by hand: leaving a for-of early would close the generator (and the file).
  for (let next = chunks.next(); !next.done; next = chunks.next()) {
    head += next.value;
    if ((format = sniff(head, false)) !== null) break;
  }
  if (failed.error !== undefined) return cannotRead(path, failed.error);
  format ??= sniff(head, true);
  const rest = function* () {
    yield head;
    yield* chunks;
  };
  let imported: ImportOutcome | null = null;
  if (format === 'jsonl') {
    const byId = new Map<string, ExchangeRecord>();
    const lines = new JsonlStream((r) => {
      byId.set(r.id, r);
      onRecord?.(r, r.seq);
    }, { maxLineChars: limits.maxLineChars });
    for (const piece of rest()) lines.push(piece);
    if (failed.error !== undefined) return cannotRead(path, failed.error);
    const read = lines.end();
    if (read.recordLines > 0) imported = finish('jsonl', [...byId.values()], read.skipped, read.notes, read.recordLines, { allowPartial });
  } else if (format === 'har') {
    const har = new HarChunks({ allowPartial }, onRecord, limits.maxLineChars);
    let going = true;
    for (const piece of rest()) if (!(going = har.push(piece))) break;
    if (failed.error !== undefined) return cannotRead(path, failed.error);
    imported = going ? har.end() : null;
  }
  if (imported) return imported;
  const max = limits.wholeReadBytes ?? WHOLE_READ_BYTES;
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > max) {
      return { ok: false, message: `${path}: the file is ${mib(size)} and is not a plain HAR or JSONL capture that can be read piece by piece (an entry larger than ${mib(limits.maxLineChars ?? MAX_HAR_PENDING_CHARS)}, or damage); files over ${mib(max)} are not read whole. Check that it is a complete HAR or mrtr-inspector JSONL file.` };
    }
    text = await readFile(path, 'utf8');
  } catch (err) {
    return cannotRead(path, err);
  }
  // The file text goes out of scope on return, before the caller's analysis.
  const whole = importCapture(text, { allowPartial });
  if (whole.ok && onRecord) whole.exchanges.forEach(onRecord);
  return whole;
}

const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 1024 * 1024 ? 3 : 0)} MiB`;
