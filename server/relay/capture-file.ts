import { lstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { withFileLock } from './file-lock.js';
import { appendPrivate, openReplacement, readBytesPrivate, readLineBytesPrivate, truncatePrivate } from './private-files.js';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { supersedes } from '../../worker/storage/merge-plan.js';

/**
 * The most a drain's batch holds by default (a single longer line still goes alone): a
 * 20k-exchange backlog (~31 MB) is one drain. A page reads the next drains before storing
 * this one, within its own bound of bytes held unwritten (worker/capture/backlog-drains.ts),
 * so the size bounds one answer, not what the page holds.
 */
export const DRAIN_BATCH_BYTES = 64 * 1024 * 1024;

/**
 * Where a batch goes as it is read, instead of into one string: `head` first, with whether
 * lines will be left out, then the batch's bytes as the file holds them (UTF-8), in pieces
 * of whole lines, in order.
 */
export interface BatchSink {
  head(more: boolean): void;
  write(bytes: Uint8Array): void;
}

/**
 * A place in the file (the byte offset of a line's start) that stays on the same line when
 * an acknowledgement rewrites the file: where a drain's batch ended, so the next drain can
 * start there before the first is acknowledged. Let go of with `untrack`.
 */
export interface FileCursor {
  offset: number;
}

/** The first line of a capture file. */
export const JSONL_HEADER_KIND = 'mrtr-inspector-capture';

// The header line every capture file starts with.
export function jsonlHeader(now = new Date()): string {
  return JSON.stringify({ kind: JSONL_HEADER_KIND, version: 1, createdAt: now.toISOString() });
}

/**
 * The relay's JSONL capture file: where records go while no inspector page is open. One
 * ExchangeRecord per line; a later line with the same id replaces the earlier one (an
 * exchange is appended when it starts, when its response head arrives and when it ends).
 *
 * Lines leave the file only when a page acknowledges it stored them (server/relay/
 * backlog.ts): reading hands the page a copy, and `remove` later drops, per acknowledged id,
 * the lines not newer than the copy it was handed. A page that closes or fails to store
 * between the two acknowledges nothing, and the same lines are handed out again.
 *
 * Race: appends, reads and removals are serialised on one promise chain, so a removal
 * rewrites the file with no append in between; an append that arrives meanwhile waits and
 * lands after the rewrite. A newer line for an acknowledged id, appended after the copy
 * was handed out, is kept. Another process appending (`wrap`, when the relay did not answer)
 * takes the file's lock (file-lock.ts), which a rewrite holds too.
 */
export class CaptureFile {
  #path: string;
  #chain: Promise<unknown> = Promise.resolve();
  /** Ids with a line in the file (landed), each with the byte offset where its last line
   *  starts (-1: not known to have landed, e.g. a write that failed), and ids with a line
   *  still queued. */
  #last = new Map<string, number>();
  #queued = new Map<string, number>();
  /** The file's size in bytes when every byte of it is known here (this relay's own writes,
   *  or a rewrite's), so `#last` says where every id's last line is; null when another
   *  writer (`wrap`, an earlier run) put lines in that were never read. */
  #size: number | null;
  #warn: (message: string) => void;
  #warned = false;
  readonly #cursors = new Set<FileCursor>();

  readonly #batchBytes: number;
  readonly #pieceBytes: number;

  /**
   * `batchBytes` bounds one drain's batch (the page drains again while `more`); `pieceBytes`
   * is how much of the file is read or written at a time.
   */
  constructor(path: string, warn: (message: string) => void, opts: { batchBytes?: number; pieceBytes?: number } = {}) {
    this.#path = path;
    this.#warn = warn;
    this.#batchBytes = opts.batchBytes ?? DRAIN_BATCH_BYTES;
    this.#pieceBytes = opts.pieceBytes ?? 64 * 1024;
    this.#size = sizeIfEmpty(path);
  }

  get path(): string {
    return this.#path;
  }

  /** True when the file holds (or is about to hold) a line for the id. */
  has(id: string): boolean {
    return this.#last.has(id) || this.#queued.has(id);
  }

  /**
   * Appends one record as one line. The line is made when its turn to be written comes, not
   * now: a queue of lines would hold a copy of every body per step of every exchange (30
   * parallel uploads held hundreds of MB of queued lines). A record that changed meanwhile
   * is written as it then stands (a later step of the same exchange), and a line with a
   * later line of the same id queued behind it is skipped, as the later one replaces it.
   */
  append(record: ExchangeRecord): Promise<void> {
    const id = record.id;
    this.#queued.set(id, (this.#queued.get(id) ?? 0) + 1);
    return this.#enqueue(async () => {
      // A removal recounts only landed lines: a line queued behind one lands after the
      // rewrite and must still count as "in the file" afterwards.
      const left = (this.#queued.get(id) ?? 1) - 1;
      if (left > 0) this.#queued.set(id, left);
      else this.#queued.delete(id);
      if (!this.#last.has(id)) this.#last.set(id, -1);
      if (left > 0) return;
      const line = JSON.stringify(record) + '\n';
      try {
        // The folder was checked (ours, 0700) when the relay started; the file is opened
        // without following symlinks and must be ours (private-files.ts).
        await appendPrivate(this.#path, (size) => {
          const text = size === 0 ? jsonlHeader() + '\n' + line : line;
          const lineBytes = Buffer.byteLength(line);
          const textBytes = size === 0 ? Buffer.byteLength(text) : lineBytes;
          this.#last.set(id, size + textBytes - lineBytes);
          // Bytes another writer appended since are not known here.
          this.#size = this.#size === size ? size + textBytes : null;
          return text;
        });
      } catch (err) {
        // A full disk or a read-only directory must not break the client's traffic; say it
        // once, loudly, with the fix.
        this.#size = null;
        if (!this.#warned) this.#warn(`Cannot write relay captures to ${this.#path}: ${(err as Error).message}. Set MRTR_RELAY_JSONL to a writable path.`);
        this.#warned = true;
      }
    });
  }

  /**
   * One drain's batch: the file's lines from the start, stopping before the line that would
   * take the batch past `batchBytes` (one line always fits, whatever its size), with the last
   * record per id in it, and whether lines were left out (`more`). The file is read line by
   * line (`pieceBytes` at a time), so a backlog of any size is never held as one string.
   *
   * `latest` resolves to `keep` of each id's last record (the backlog keeps only a mark of
   * it). With a `sink`, the batch is handed to it as it is read (`content` is then empty),
   * as the bytes the file holds, never decoded: the page reads them while the relay is still
   * sending, and `latest` is worked out from the sent pieces afterwards, yielding to the
   * event loop between pieces so the sending goes on meanwhile (the relay shares the
   * machine with the page it feeds: the parsing it still does comes after the last byte is
   * queued, not before each line). Its `more` is said
   * before the first line, from the file's size: a file no bigger than the bound fits
   * whole, a bigger one leaves lines out (only blank lines, which are skipped, can make that
   * a "more" with nothing left, and the page's next drain then finds the file empty).
   */
  read(
    sink?: BatchSink,
    keep: (r: ExchangeRecord) => ExchangeRecord = (r) => r,
    from: FileCursor | null = null,
  ): Promise<{ content: string; latest: Promise<Map<string, ExchangeRecord>>; more: boolean; end: FileCursor }> {
    return this.#enqueue(async () => {
      const start = from?.offset ?? 0;
      let position = start;
      const lines: string[] = [];
      const sent: Buffer[] = [];
      let bytes = 0;
      let count = 0;
      let more = false;
      let piece: Buffer[] = [];
      let pieceBytes = 0;
      const send = () => {
        if (!sink || piece.length === 0) return;
        const out = Buffer.concat(piece, pieceBytes);
        sent.push(out);
        sink.write(out);
        piece = [];
        pieceBytes = 0;
      };
      if (sink) {
        const size = await fileSize(this.#path);
        sink.head(size - start > this.#batchBytes);
        // A batch from the middle of the file starts with a header of its own, as a file does.
        if (start > 0 && size > start) {
          piece.push(Buffer.from(jsonlHeader() + '\n'));
          pieceBytes += piece[0]!.length;
        }
      }
      await readLineBytesPrivate(this.#path, (line) => {
        if (isBlank(line)) {
          position += line.length + 1;
          return;
        }
        const size = line.length + 1;
        if (count > 0 && bytes + size > this.#batchBytes) {
          more = true;
          return false;
        }
        position += size;
        count++;
        bytes += size;
        if (!sink) return void lines.push(line.toString('utf8'));
        // Copied: the line is a view of a piece the next read reuses.
        piece.push(Buffer.from(line), NEWLINE);
        pieceBytes += size;
        if (pieceBytes >= this.#pieceBytes) send();
      }, this.#pieceBytes, start);
      send();
      // A last line without its newline was counted one byte long: the end is never past the file.
      const size = await stat(this.#path).then((st) => st.size, () => 0);
      const end = this.#track(Math.min(position, Math.max(size, start)));
      const latest = sink ? latestOfPieces(sent, keep) : Promise.resolve(takeLatest(new Map(), lines, keep));
      const content = lines.length ? (start > 0 ? jsonlHeader() + '\n' : '') + lines.join('\n') + '\n' : '';
      return { content, latest, more, end };
    });
  }

  /**
   * Drops the lines of each `acked` id that are not newer (`supersedes`) than the copy of
   * it in `handed`; every other line stays, in order. Resolves to how many records (ids)
   * left the file and how many are still in it. The file is emptied (no header) when
   * nothing is left. The file is read and its replacement written line by line; only the
   * lines of acknowledged ids (and lines not as this relay writes them) are parsed.
   *
   * `through`: where the drain that handed `handed` out ended. Every line before it was in
   * the file when that drain was read (lines are only ever added at the end), so a line of
   * an acknowledged id there is the handed copy or older, and goes without being parsed;
   * every line from it on was read by no drain of these ids, or added since, and stays as
   * bytes, unread. That takes when every byte of the file is known here (`#size`), so that
   * the ids of the lines that stay are known without reading them; otherwise, or without
   * `through`, the whole file is read (and every byte is known afterwards). At 100k
   * exchanges, acknowledging the first drain (41,659 ids) took 0.27–0.31 s so, against
   * 0.77–0.85 s reading the whole file (docs/architecture.md).
   */
  remove(handed: ReadonlyMap<string, ExchangeRecord>, acked: ReadonlySet<string>, through?: FileCursor): Promise<{ removed: number; left: number }> {
    // Locked (file-lock.ts): a wrap appending between the read and the rename would be lost.
    return this.#enqueue(() => withFileLock(this.#path, async () => {
      const size = await fileSize(this.#path);
      const quick = through !== undefined && this.#cursors.has(through) && this.#size === size && through.offset <= size;
      if (!quick) return this.#removeReading(handed, acked);
      // Only ids that drain handed out: the page's word about others moves nothing.
      const gone = new Set<string>();
      for (const id of acked) if (handed.has(id)) gone.add(id);
      return this.#removeBefore(through.offset, gone, size);
    }));
  }

  // `remove`, reading every line.
  async #removeReading(handed: ReadonlyMap<string, ExchangeRecord>, acked: ReadonlySet<string>): Promise<{ removed: number; left: number }> {
    const before = new Set<string>();
    const out = new Replacement(this.#path, this.#pieceBytes);
    const moves = new CursorMoves(this.#cursors);
    try {
      await this.#rewriteLines(out, moves, Infinity, async (line) => {
        // A line of an id not acknowledged stays as it is: read for its id only, not parsed
        // (a parse of every line left made each acknowledgement a parse of the whole file).
        const id = lineId(line);
        if (id !== null && !acked.has(id)) {
          before.add(id);
          return out.keep(id, line);
        }
        const r = record(line);
        if (r === null) return; // the header, or a line cut by a crash: nothing to deliver
        before.add(r.id);
        const copy = acked.has(r.id) ? handed.get(r.id) : undefined;
        if (copy && !supersedes(r, copy)) return;
        await out.keep(r.id, line);
      });
      if (before.size === 0) {
        await out.abort();
        return { removed: 0, left: 0 };
      }
      await out.finish();
    } catch (err) {
      await out.abort();
      throw err;
    }
    moves.reach(Infinity, out.at);
    moves.apply(out.at === 0);
    this.#last = out.last;
    this.#size = out.at;
    return { removed: before.size - out.last.size, left: out.last.size };
  }

  // `remove` of a drain's lines that ended at `end`: the lines before it read for their ids
  // (those of `gone`, acknowledged and handed out by that drain, dropped), the rest copied as
  // bytes (see `remove`).
  async #removeBefore(end: number, gone: ReadonlySet<string>, size: number): Promise<{ removed: number; left: number }> {
    const dropped = new Set<string>();
    const out = new Replacement(this.#path, this.#pieceBytes);
    const moves = new CursorMoves(this.#cursors);
    try {
      await this.#rewriteLines(out, moves, end, async (line) => {
        const id = lineId(line) ?? record(line)?.id ?? null;
        if (id === null) return; // the header, or a line cut by a crash
        if (gone.has(id)) dropped.add(id);
        else await out.keep(id, line);
      });
      if (size > end) await out.startTail();
      const shift = out.at - end;
      moves.reach(end, out.at);
      moves.shiftRest(shift);
      if (size > end) await readBytesPrivate(this.#path, end, (piece) => out.putBytes(piece));
      // The ids whose last line is from `end` on: where those bytes moved to.
      for (const [id, at] of this.#last) if (at >= end) out.last.set(id, at + shift);
      await out.finish();
    } catch (err) {
      await out.abort();
      throw err;
    }
    moves.apply(out.at === 0);
    let removed = 0;
    for (const id of dropped) if (!out.last.has(id)) removed++;
    this.#last = out.last;
    this.#size = out.at;
    return { removed, left: out.last.size };
  }

  // The file's lines before byte `end` for a rewrite, blank ones skipped: each cursor is
  // placed (`moves`) as the line it stands on is reached, before `onLine` keeps it or not.
  #rewriteLines(out: Replacement, moves: CursorMoves, end: number, onLine: (line: string) => Promise<void>): Promise<void> {
    let oldAt = 0;
    return readLineBytesPrivate(this.#path, (bytes) => {
      if (oldAt >= end) return false;
      moves.reach(oldAt, out.at);
      oldAt += bytes.length + 1;
      const line = bytes.toString('utf8');
      if (line.trim() === '') return;
      return onLine(line);
    }, this.#pieceBytes);
  }

  /** Stops moving a cursor with the file's rewrites. */
  untrack(cursor: FileCursor): void {
    this.#cursors.delete(cursor);
  }

  #track(offset: number): FileCursor {
    const cursor = { offset };
    this.#cursors.add(cursor);
    return cursor;
  }

  /** Resolves once every queued write has landed. */
  flush(): Promise<void> {
    return this.#enqueue(async () => undefined);
  }

  #enqueue<T>(job: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(job, job);
    this.#chain = next.catch(() => undefined);
    return next;
  }
}

// The replacement a removal writes (beside the file, renamed over it when whole: a crash
// mid-rewrite leaves the old file, never half of one), in pieces, with where each id's last
// kept line starts. The file is emptied instead when nothing is kept.
class Replacement {
  /** Bytes of the replacement so far. */
  at = 0;
  readonly last = new Map<string, number>();
  readonly #path: string;
  readonly #pieceBytes: number;
  #out: Awaited<ReturnType<typeof openReplacement>> | null = null;
  #pending: string[] = [];
  #pendingBytes = 0;

  constructor(path: string, pieceBytes: number) {
    this.#path = path;
    this.#pieceBytes = pieceBytes;
  }

  /** A line that stays, after the header the replacement starts with. */
  async keep(id: string, line: string): Promise<void> {
    if (this.at === 0) await this.#put(jsonlHeader());
    this.last.set(id, this.at);
    await this.#put(line);
  }

  /** Before bytes copied as they are: the header, when no line was kept before them. */
  async startTail(): Promise<void> {
    if (this.at === 0) await this.#put(jsonlHeader());
    await this.#flush();
  }

  async putBytes(bytes: Uint8Array): Promise<void> {
    this.#out ??= await openReplacement(this.#path);
    await this.#out.write(bytes);
    this.at += bytes.length;
  }

  /** Puts the replacement in the file's place, or empties the file when nothing was kept. */
  async finish(): Promise<void> {
    await this.#flush();
    if (this.#out) await this.#out.commit();
    else await truncatePrivate(this.#path);
  }

  async abort(): Promise<void> {
    if (this.#out) await this.#out.abort();
  }

  async #put(line: string): Promise<void> {
    this.#pending.push(line);
    this.#pendingBytes += line.length + 1;
    this.at += Buffer.byteLength(line) + 1;
    if (this.#pendingBytes >= this.#pieceBytes) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    this.#out ??= await openReplacement(this.#path);
    await this.#out.write(this.#pending.join('\n') + '\n');
    this.#pending = [];
    this.#pendingBytes = 0;
  }
}

// Where a rewrite moves the file's cursors (see FileCursor): each to where its line, or the
// first line kept after it, lands in the replacement. Worked out as the file is read, in
// offset order, and applied once the replacement is in place.
class CursorMoves {
  readonly #cursors: FileCursor[];
  readonly #moved: number[] = [];

  constructor(cursors: Iterable<FileCursor>) {
    this.#cursors = [...cursors].sort((a, b) => a.offset - b.offset);
  }

  /** The cursors at or before `oldAt` not placed yet go to `newAt`. */
  reach(oldAt: number, newAt: number): void {
    while (this.#moved.length < this.#cursors.length && this.#cursors[this.#moved.length]!.offset <= oldAt) this.#moved.push(newAt);
  }

  /** The cursors not placed yet move by `shift` (their bytes are copied as they are). */
  shiftRest(shift: number): void {
    while (this.#moved.length < this.#cursors.length) this.#moved.push(this.#cursors[this.#moved.length]!.offset + shift);
  }

  /** Moves them (all to 0 when the file was emptied). */
  apply(emptied: boolean): void {
    this.#cursors.forEach((c, i) => { c.offset = emptied ? 0 : this.#moved[i]!; });
  }
}

const NEWLINE = Buffer.from('\n');

// True for a line with nothing but white space (skipped, as the page's reader skips it). A
// record's line starts with `{`, so only other lines are decoded to tell.
function isBlank(line: Buffer): boolean {
  return line.length === 0 || (line[0] !== 0x7b && line.toString('utf8').trim() === '');
}

// Sets `keep` of each record among `lines` in `latest` (a later line of an id replaces an earlier one).
function takeLatest(latest: Map<string, ExchangeRecord>, lines: Iterable<string>, keep: (r: ExchangeRecord) => ExchangeRecord): Map<string, ExchangeRecord> {
  for (const line of lines) {
    const r = line === '' ? null : record(line);
    if (r) latest.set(r.id, keep(r));
  }
  return latest;
}

// The same from the pieces a sink was sent (whole lines each), a piece per turn of the event loop.
async function latestOfPieces(pieces: readonly Buffer[], keep: (r: ExchangeRecord) => ExchangeRecord): Promise<Map<string, ExchangeRecord>> {
  const latest = new Map<string, ExchangeRecord>();
  for (const piece of pieces) {
    takeLatest(latest, piece.toString('utf8').split('\n'), keep);
    await new Promise((r) => setImmediate(r));
  }
  return latest;
}

// The id of a line as this relay writes it (`{"v":1,"id":"…",…}`, whole: ending with its
// brace), found without parsing the line; null when the line does not start so (the header,
// a line cut short, another writer's key order, an id with escapes): the caller parses it.
const LINE_HEAD = /^\{"v":\d+,"id":"([^"\\]*)",/;
export function lineId(line: string): string | null {
  if (!line.endsWith('}')) return null;
  return LINE_HEAD.exec(line)?.[1] ?? null;
}

// A line of a capture file as a record, or null for the header and for lines that are not
// records (one cut short by a crash): the page's reader skips those too.
function record(line: string): ExchangeRecord | null {
  try {
    const v = JSON.parse(line) as Partial<ExchangeRecord> | null;
    return v && typeof v === 'object' && typeof v.id === 'string' && typeof v.state === 'string' ? (v as ExchangeRecord) : null;
  } catch {
    return null;
  }
}

// The file's size in bytes, 0 when it is absent.
function fileSize(path: string): Promise<number> {
  return stat(path).then((st) => st.size, (err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return 0;
    throw err;
  });
}

// 0 for a file that is absent or empty (every byte it will hold is then written here), else
// null: its lines are not known until a removal reads them.
function sizeIfEmpty(path: string): number | null {
  try {
    return lstatSync(path).size === 0 ? 0 : null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 0 : null;
  }
}
