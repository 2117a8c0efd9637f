// Splits a byte stream into lines on "\n", for reading copies of what passes through the
// wrap. A line cut across chunks is joined once, when its end arrives (never re-joined per
// chunk), so a 50 MB line costs one copy.
/** Feeds whole lines (without "\n" and a trailing "\r") to `onLine`. */
export class LineSplitter {
  #parts: Buffer[] = [];
  #size = 0;
  readonly #onLine: (line: Buffer) => void;

  constructor(onLine: (line: Buffer) => void) {
    this.#onLine = onLine;
  }

  /** Bytes buffered in an unfinished line. */
  get buffered(): number {
    return this.#size;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      let line = chunk.subarray(start, nl);
      if (this.#parts.length > 0) {
        this.#parts.push(line);
        line = Buffer.concat(this.#parts, this.#size + line.length);
        this.#parts = [];
        this.#size = 0;
      }
      this.#deliver(line);
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.#parts.push(chunk.subarray(start));
      this.#size += chunk.length - start;
    }
  }

  /** The stream ended: an unterminated last line is still a line. */
  end(): void {
    if (this.#size === 0) return;
    const line = Buffer.concat(this.#parts, this.#size);
    this.#parts = [];
    this.#size = 0;
    this.#deliver(line);
  }

  #deliver(line: Buffer): void {
    const n = line.length;
    const trimmed = n > 0 && line[n - 1] === 13 ? line.subarray(0, n - 1) : line;
    if (trimmed.length > 0) this.#onLine(trimmed);
  }
}
