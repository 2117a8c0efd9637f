// Splits a byte stream into lines on "\n", for reading copies of what passes through the
// wrap. A line cut across chunks is joined once, when its end arrives (never re-joined per
// chunk), so a 50 MB line costs one copy.
//
// Hazard: the stream is the other side's to shape. A line without a newline would otherwise
// be held whole (a server once sent 2.7 GB of it in 25 s), so only its first `maxLine` bytes
// and its last TAIL_BYTES are kept; the rest is counted, and the line is handed on cut.

/** How much of a cut line's end is kept (where a JSON-RPC answer's id often is). */
export const TAIL_BYTES = 256;

/** A line longer than the splitter keeps: its first bytes, its last ones, and its size. */
export interface CutLine {
  totalBytes: number;
  tail: Buffer;
}

/** Feeds whole lines (without "\n" and a trailing "\r") to `onLine`; a line past `maxLine`
 *  bytes comes as its first `maxLine` bytes with `cut` set. */
export class LineSplitter {
  #parts: Buffer[] = [];
  #size = 0;
  /** Bytes of the current line past what is kept (0 while it fits). */
  #over = 0;
  #tail: Buffer = Buffer.alloc(0);
  readonly #onLine: (line: Buffer, cut?: CutLine) => void;
  readonly #max: number;

  constructor(onLine: (line: Buffer, cut?: CutLine) => void, maxLine = Infinity) {
    this.#onLine = onLine;
    this.#max = maxLine;
  }

  /** Bytes buffered in an unfinished line (never more than `maxLine`). */
  get buffered(): number {
    return this.#size;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.#keep(chunk.subarray(start, nl));
      this.#finish();
      start = nl + 1;
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
  }

  /** The stream ended: an unterminated last line is still a line. */
  end(): void {
    if (this.#size > 0 || this.#over > 0) this.#finish();
  }

  // Keeps the start of the line up to the limit; past it, only a count and the last bytes.
  #keep(piece: Buffer): void {
    if (piece.length === 0) return;
    const room = this.#max - this.#size;
    if (room > 0) {
      const kept = piece.length <= room ? piece : piece.subarray(0, room);
      this.#parts.push(kept);
      this.#size += kept.length;
      if (kept === piece) return;
    }
    this.#over += piece.length - Math.max(0, room);
    // Copied: the chunk it views is the pass-through's, and must not be held.
    const t = Buffer.concat([this.#tail, piece.subarray(Math.max(0, piece.length - TAIL_BYTES))]);
    this.#tail = Buffer.from(t.subarray(Math.max(0, t.length - TAIL_BYTES)));
  }

  #finish(): void {
    const line = this.#parts.length === 1 ? this.#parts[0] : Buffer.concat(this.#parts, this.#size);
    const over = this.#over;
    const tail = this.#tail;
    this.#parts = [];
    this.#size = 0;
    this.#over = 0;
    this.#tail = Buffer.alloc(0);
    if (over > 0) {
      this.#onLine(line, { totalBytes: line.length + over, tail: trimCr(tail) });
      return;
    }
    const trimmed = trimCr(line);
    if (trimmed.length > 0) this.#onLine(trimmed);
  }
}

function trimCr(b: Buffer): Buffer {
  const n = b.length;
  return n > 0 && b[n - 1] === 13 ? b.subarray(0, n - 1) : b;
}
