// What `lint` and `replay` both do before their own work: read the --key values and the
// capture file, with the same messages for the same mistakes. Problems come back as the
// text to print after "mrtr-inspector: " (exit status 2); skipped entries are reported here.
import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { importCapture, importHarChunks, type ImportOutcome } from '../worker/capture/index.js';
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

/**
 * Reads and imports a capture file; says on stderr which entries were skipped. `onRecord`
 * is called with each record and its index as it is read (for a read that is given up,
 * again from index 0), so that in the end it has seen exactly the exchanges returned.
 */
export async function readCapture(
  path: string, allowPartial: boolean, onRecord?: (record: ExchangeRecord, index: number) => void,
): Promise<Extract<ImportOutcome, { ok: true }> | { ok: false; message: string }> {
  // A plain HAR is imported from its text as it is read (importHarChunks): the whole file
  // as one string would be the memory peak of a big lint. Anything else (JSONL, a damaged
  // or unusual HAR) is read whole, for importCapture's precise errors.
  const failed: { error?: unknown } = {};
  let imported = importHarChunks(chunksOf(path, failed), { allowPartial }, onRecord);
  if (failed.error !== undefined) return cannotRead(path, failed.error);
  if (imported === null) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      return cannotRead(path, err);
    }
    // The file text goes out of scope on return, before the caller's analysis.
    imported = importCapture(text, { allowPartial });
    if (imported.ok && onRecord) imported.exchanges.forEach(onRecord);
  }
  if (!imported.ok) {
    // The worker's message says what is readable; how to import it anyway is this host's to say.
    const how = imported.skipped.length || /can be imported/.test(imported.error.message) ? ' Pass --allow-partial to import them.' : '';
    return { ok: false, message: `${path}: ${imported.error.message}${how}${imported.error.where ? ` (at ${imported.error.where})` : ''}` };
  }
  for (const s of imported.skipped) say(`skipped ${s.where}: ${s.message}`);
  return imported;
}
