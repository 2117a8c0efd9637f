// What `lint` and `replay` both do before their own work: read the --key values and the
// capture file, with the same messages for the same mistakes. Problems come back as the
// text to print after "mrtr-inspector: " (exit status 2); skipped entries are reported here.
import { readFile } from 'node:fs/promises';
import { importCapture, type ImportOutcome } from '../worker/capture/index.js';
import { parseKey, type TokenKey } from '../worker/tokens/index.js';

/** Writes one message to stderr, prefixed with the tool's name. */
export const say = (msg: string): void => void process.stderr.write(`mrtr-inspector: ${msg}\n`);

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

/** Reads and imports a capture file; says on stderr which entries were skipped. */
export async function readCapture(path: string, allowPartial: boolean): Promise<Extract<ImportOutcome, { ok: true }> | { ok: false; message: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    return { ok: false, message: `cannot read ${path}: ${why}` };
  }
  // The file text goes out of scope on return, before the caller's analysis.
  const imported = importCapture(text, { allowPartial });
  if (!imported.ok) return { ok: false, message: `${path}: ${imported.error.message}${imported.error.where ? ` (at ${imported.error.where})` : ''}` };
  for (const s of imported.skipped) say(`skipped ${s.where}: ${s.message}`);
  return imported;
}
