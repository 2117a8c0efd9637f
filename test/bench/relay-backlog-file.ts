// A relay capture file (the JSONL the relay drains into the page when it opens) holding N
// exchanges of the bench generator's shape (generate-capture.ts): the HAR it writes, read
// by the project's own HAR reader and written out one record per line, as the relay files
// records while no page is open. Deterministic for a given size; cached in .bench/.
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { importHarChunks } from '../../worker/capture/index.js';
import { jsonlLine } from '../../worker/capture/jsonl.js';
import { generateCapture } from './generate-capture.js';

// The HAR read in 1 MiB pieces, never whole (the 100k file is ~175 MB).
function* pieces(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(1 << 20);
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      yield decoder.decode(buf.subarray(0, n), { stream: true });
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    closeSync(fd);
  }
}

/** The path of a relay capture file with `n` exchanges under `dir` (made once, then reused). */
export async function relayBacklogFile(dir: string, n: number): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `relay-backlog-${n}.jsonl`);
  if (existsSync(file)) return file;
  const har = join(dir, `import-${n}.har`);
  if (!existsSync(har)) await generateCapture(har, n);
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: new Date().toISOString() }) + '\n');
    let lines: string[] = [];
    const out = importHarChunks(pieces(har), { idPrefix: 'bench' }, (r) => {
      lines.push(jsonlLine({ ...r, source: 'relay', state: 'complete' }));
      if (lines.length >= 1000) {
        writeSync(fd, lines.join(''));
        lines = [];
      }
    });
    if (out === null || !out.ok) throw new Error('the bench HAR did not import');
    writeSync(fd, lines.join(''));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  return file;
}
