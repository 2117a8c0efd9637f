// Which era a served stdio server process speaks, read from the lines wrap writes to its
// stdin: the first request or notification that picks one (stdio-front.ts's pinningEra, the
// body-only reading the SDK v2's serveStdio uses). wrap keeps it for the process's life and
// tells a restarted inspector on re-attach, so the note on a refused caller of the other era
// still says the right thing.
import { StringDecoder } from 'node:string_decoder';
import { pinningEra } from '../../server/relay/stdio-front.js';
import type { Era } from '../../worker/protocol.js';

/** Past this many bytes without a line end, the opening line is not read for its era. */
const MAX_OPENING_BYTES = 1024 * 1024;

export class EraWatch {
  era: Era | undefined;
  #partial = '';
  #done = false;
  readonly #utf8 = new StringDecoder('utf8');

  /** Reads a chunk written to the server; cheap once the era is known. */
  push(chunk: Buffer): void {
    if (this.#done) return;
    const text = this.#partial + this.#utf8.write(chunk);
    const lines = text.split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) {
      this.era = eraOfLine(line);
      if (this.era) return this.#stop();
    }
    if (this.#partial.length > MAX_OPENING_BYTES) this.#stop();
  }

  #stop(): void {
    this.#done = true;
    this.#partial = '';
  }
}

function eraOfLine(line: string): Era | undefined {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return undefined;
  }
  return typeof msg === 'object' && msg !== null && !Array.isArray(msg) ? pinningEra(msg as Record<string, unknown>) : undefined;
}
