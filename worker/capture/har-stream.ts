// Finds a HAR's `log.entries` in the file's text as it is read, chunk by chunk, and hands
// each entry on, parsed: a host that reads the file in chunks (the CLI) never holds the
// whole file as one string, which would be its memory peak (1x the file size, and held
// until the next full GC, on top of the records built from it). The same rules as
// splitHarEntries (har-entries.ts), whose scan this is, made resumable; the same
// fast-path contract: anything unusual declines, and the caller imports the whole text
// the careful way.
//
// Text, not bytes: string indexOf is far faster than any byte loop in JS. The host decodes
// (the CLI with node:string_decoder, ~2x faster than a streaming TextDecoder in Node) and
// must decode the chunks as one stream, so a character cut between chunks is joined as a
// whole-file decode would join it. Between chunks only the unfinished part is kept: the
// entry being read, or the envelope (everything outside `log.entries`, small in every HAR
// producer writes).
//
// Batches: walking every entry to find where it ends costs as much as parsing it. Once two
// entries have shown what lies between entries (`},\n{"startedDateTime"` or the like), the
// last such seam in the text is taken as a guess, and everything before it parsed at once
// as `[` + text + `]`. A guess is never trusted: only a successful parse of the whole batch
// proves it (a seam inside an entry leaves brackets unbalanced); a failed one turns
// batches off and the walk goes on as if none had been tried.

import { nextNonSpace, skipString, trimEnd } from './har-entries.js';

/**
 * The most unfinished text held between pieces (an entry being read, or the envelope
 * before the entries), in characters. Past it the fast path declines rather than join a
 * string that could pass the engine's limit; the caller decides whether a whole read fits.
 */
export const MAX_HAR_PENDING_CHARS = 128 * 1024 * 1024;

const QUOTE = 34, OPEN_OBJ = 123, CLOSE_OBJ = 125, OPEN_ARR = 91, CLOSE_ARR = 93, COMMA = 44, COLON = 58;
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * Index just past the object or array that opens at `i`, or -1 when the text ends first.
 * Hot path (every entry): the depth count splitHarEntries keeps below `log.entries`,
 * where none of its other rules apply; brackets that do not match are left to JSON.parse.
 */
function skipContainer(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) {
      const end = skipString(text, j);
      if (end < 0) return -1;
      j = end - 1;
    } else if (c === OPEN_OBJ || c === OPEN_ARR) {
      depth++;
    } else if ((c === CLOSE_OBJ || c === CLOSE_ARR) && --depth === 0) {
      return j + 1;
    }
  }
  return -1;
}

/** `[` + text[start, end) + `]` parsed, when it is a JSON array; else null. */
function parseBatch(text: string, start: number, end: number): unknown[] | null {
  try {
    const v: unknown = JSON.parse('[' + text.slice(start, end) + ']');
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Feed it the file with `push`, then call `end`. `onEntry` gets each element of
 * `log.entries`, parsed, in order; returning false declines, as does an element that is
 * not JSON. After a decline `push` returns false and `end` null: the caller falls back to
 * the whole text.
 */
export class HarEntryStream {
  /** Text not yet consumed; `pos` is the next token in it (never inside a token). */
  private carry = '';
  private pos = 0;
  /** Decoded text waiting to be scanned (see push). */
  private pieces: string[] = [];
  private waiting = 0;
  private started = false;
  private bomSeen = false;
  private declined = false;
  private count = 0;
  // splitHarEntries' state; positions are in `carry`.
  private depth = 0;
  private inLog = false;
  private logDepth = -1;
  private entriesOpen = false;
  private entriesClosed = false;
  private seenLog = 0;
  private seenEntries = 0;
  private lastKey = '';
  private elementStart = -1;
  /** `[1,]` is not JSON: a comma must be followed by an element. */
  private afterComma = false;
  /** The envelope up to and including the entries' `[`; its tail starts at tailStart. */
  private head = '';
  private tailStart = -1;

  /** What lies between two entries, through the next one's first key ('' until seen). */
  private seam = '';
  /** A seam is learnt once, and given up for good when a batch fails. */
  private seamTried = false;
  /** Where the last entry walked and emitted ended, and in which text (see learnSeam). */
  private lastEnd = -1;
  private lastText = '';

  /** How many entries came from batches (for tests and benchmarks). */
  batched = 0;

  constructor(
    private readonly onEntry: (value: unknown, index: number) => boolean,
    private readonly maxPending = MAX_HAR_PENDING_CHARS,
  ) {}

  /** Scans one more piece of the text. False once declined. */
  push(chunk: string): boolean {
    if (this.declined) return false;
    let text = chunk;
    if (!this.started) {
      // One leading BOM is dropped, as importCapture drops it; the fast path wants `{` first.
      if (!this.bomSeen && text.length > 0) {
        this.bomSeen = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (text.length === 0) return true;
      if (text.charCodeAt(0) !== OPEN_OBJ) return this.decline();
      this.started = true;
    }
    if (text.length === 0) return true;
    this.pieces.push(text);
    this.waiting += text.length;
    if (this.carry.length + this.waiting > this.maxPending) return this.decline();
    // Hazard: the carried text is copied, and an unfinished token scanned again from its
    // start, with each new text; a 50 MB entry read in 1 MB chunks would be copied 50 times
    // over. Waiting until as much text is new as is carried keeps the total work linear.
    if (this.waiting < this.carry.length) return true;
    this.scan(false);
    return !this.declined;
  }

  /** The envelope (the document with an empty `log.entries`) and the entry count, or null. */
  end(): { envelope: unknown; entries: number } | null {
    if (this.declined || !this.started) return null;
    this.scan(true);
    if (this.declined || this.depth !== 0 || !this.entriesClosed) return null;
    try {
      return { envelope: JSON.parse(this.head + this.carry.slice(this.tailStart)), entries: this.count };
    } catch {
      return null;
    }
  }

  private decline(): false {
    this.declined = true;
    this.carry = '';
    this.pieces = [];
    return false;
  }

  /** Hazard: every exit keeps `pos` at the start of a token it can scan again whole. */
  private scan(final: boolean): void {
    const text = this.carry + this.pieces.join('');
    this.pieces = [];
    this.waiting = 0;
    let i = this.pos;
    let depth = this.depth;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        const end = skipString(text, i);
        if (end < 0) {
          if (final) return void this.decline();
          break;
        }
        const after = depth <= 2 ? nextNonSpace(text, end) : end;
        if (after === text.length && depth <= 2 && !final) break; // is it a key? the colon is yet to come
        if (depth <= 2 && text.charCodeAt(after) === COLON) this.lastKey = text.slice(i + 1, end - 1);
        else if (this.entriesOpen && !this.entriesClosed && depth === 3 && this.elementStart < 0) {
          this.elementStart = i;
          this.afterComma = false;
        }
        i = end - 1;
        continue;
      }
      if (c === OPEN_OBJ || c === OPEN_ARR) {
        if (depth === 3 && this.entriesOpen && !this.entriesClosed && this.elementStart < 0) {
          if (c === OPEN_OBJ && !this.seamTried) this.learnSeam(text, i);
          const seam = this.seam === '' ? -1 : text.lastIndexOf(this.seam);
          if (seam > i) {
            const batch = parseBatch(text, i, seam + 1);
            if (batch !== null) {
              this.batched += batch.length;
              for (const v of batch) if (!this.onEntry(v, this.count++)) return void this.decline();
              i = text.indexOf(',', seam + 1); // the seam's comma: the walk goes on after it
              this.afterComma = true;
              this.lastKey = '';
              continue;
            }
            this.seam = '';
          }
          // An entry: skipped whole here, as splitHarEntries' loop would walk it.
          const end = skipContainer(text, i);
          if (end < 0) {
            if (final) return void this.decline();
            break;
          }
          this.elementStart = i;
          this.afterComma = false;
          this.lastKey = '';
          i = end - 1;
          continue;
        }
        depth++;
        if (depth === 2 && c === OPEN_OBJ && this.lastKey === 'log') {
          if (++this.seenLog > 1) return void this.decline();
          this.inLog = true;
          this.logDepth = depth;
        } else if (depth === 3 && this.inLog && c === OPEN_ARR && this.lastKey === 'entries') {
          if (++this.seenEntries > 1) return void this.decline();
          this.entriesOpen = true;
          this.head = text.slice(0, i + 1);
        } else if (depth === 4 && this.entriesOpen && !this.entriesClosed && this.elementStart < 0) {
          this.elementStart = i;
          this.afterComma = false;
        }
        this.lastKey = '';
        continue;
      }
      if (c === CLOSE_OBJ || c === CLOSE_ARR) {
        if (depth === 3 && this.entriesOpen && !this.entriesClosed) {
          if (c !== CLOSE_ARR || this.afterComma) return void this.decline();
          if (this.elementStart >= 0 && !this.emit(text, i)) return;
          this.entriesClosed = true;
          this.tailStart = i;
        }
        if (depth === this.logDepth && this.inLog) this.inLog = false;
        if (--depth < 0) return void this.decline();
        continue;
      }
      if (depth === 3 && this.entriesOpen && !this.entriesClosed) {
        if (c === COMMA) {
          if (this.elementStart < 0) return void this.decline();
          if (!this.emit(text, i)) return;
          this.afterComma = true;
        } else if (this.elementStart < 0 && !isSpace(c)) {
          // Any other non-space character inside the entries array starts a scalar element.
          this.elementStart = i;
          this.afterComma = false;
        }
      }
    }
    this.depth = depth;
    // Keep what is still needed: all of it until the entries open (the envelope's head),
    // from the `]` once they close (its tail), else the unfinished entry or token.
    const keep = !this.entriesOpen ? 0 : this.entriesClosed ? this.tailStart : this.elementStart >= 0 ? this.elementStart : i;
    this.carry = text.slice(keep);
    this.pos = i - keep;
    if (this.elementStart >= 0) this.elementStart -= keep;
    if (this.tailStart >= 0) this.tailStart -= keep;
  }

  private emit(text: string, end: number): boolean {
    const stop = trimEnd(text, end);
    let value: unknown;
    try {
      value = JSON.parse(text.slice(this.elementStart, stop));
    } catch {
      return this.decline();
    }
    this.elementStart = -1;
    this.lastEnd = stop;
    this.lastText = text;
    if (!this.onEntry(value, this.count++)) return this.decline();
    return true;
  }

  /** At an object entry opening at `i` right after a walked one: the seam is from that
   *  one's `}` through this one's first key. */
  private learnSeam(text: string, i: number): void {
    if (this.lastText !== text || this.lastEnd < 1 || text.charCodeAt(this.lastEnd - 1) !== CLOSE_OBJ) return;
    const k = nextNonSpace(text, i + 1);
    const keyEnd = text.charCodeAt(k) === QUOTE ? skipString(text, k) : -1;
    if (keyEnd < 0) return;
    this.seam = text.slice(this.lastEnd - 1, keyEnd);
    this.seamTried = true;
  }
}
