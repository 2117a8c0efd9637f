import { stat } from 'node:fs/promises';
import { withFileLock } from './file-lock.js';
import { appendPrivate, openReplacement, readLineBytesPrivate, truncatePrivate } from './private-files.js';
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
  /** Ids with a line in the file (landed), and ids with a line still queued. */
  #ids = new Set<string>();
  #queued = new Map<string, number>();
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
  }

  get path(): string {
    return this.#path;
  }

  /** True when the file holds (or is about to hold) a line for the id. */
  has(id: string): boolean {
    return this.#ids.has(id) || this.#queued.has(id);
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
      this.#ids.add(id);
      if (left > 0) return;
      const line = JSON.stringify(record) + '\n';
      try {
        // The folder was checked (ours, 0700) when the relay started; the file is opened
        // without following symlinks and must be ours (private-files.ts).
        await appendPrivate(this.#path, (size) => (size === 0 ? jsonlHeader() + '\n' + line : line));
      } catch (err) {
        // A full disk or a read-only directory must not break the client's traffic; say it
        // once, loudly, with the fix.
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
        const size = await stat(this.#path).then((st) => st.size, (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return 0;
          throw err;
        });
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
   * lines of acknowledged ids (and lines not as this relay writes them) are parsed: at 100k
   * exchanges, acknowledging the first drain's 41,659 took 0.87–0.94 s against 1.11–1.68 s
   * when every line left was parsed too.
   */
  remove(handed: ReadonlyMap<string, ExchangeRecord>, acked: ReadonlySet<string>): Promise<{ removed: number; left: number }> {
    // Locked (file-lock.ts): a wrap appending between the read and the rename would be lost.
    return this.#enqueue(() => withFileLock(this.#path, async () => {
      const before = new Set<string>();
      const left = new Set<string>();
      // Written beside and renamed: a crash mid-rewrite leaves the old file, never half of one.
      let out: Awaited<ReturnType<typeof openReplacement>> | null = null;
      let pending: string[] = [];
      let pendingBytes = 0;
      const put = async (line: string) => {
        pending.push(line);
        pendingBytes += line.length + 1;
        newAt += Buffer.byteLength(line) + 1;
        if (pendingBytes >= this.#pieceBytes) await flushPending();
      };
      // A line that stays, after the header the replacement starts with.
      const keep = async (id: string, line: string) => {
        if (left.size === 0) await put(jsonlHeader());
        await put(line);
        left.add(id);
      };
      const flushPending = async () => {
        if (pending.length === 0) return;
        out ??= await openReplacement(this.#path);
        await out.write(pending.join('\n') + '\n');
        pending = [];
        pendingBytes = 0;
      };
      // Each cursor moves to where its line lands in the replacement (see FileCursor).
      const cursors = [...this.#cursors].sort((a, b) => a.offset - b.offset);
      const moved: number[] = [];
      let oldAt = 0;
      let newAt = 0;
      try {
        await readLineBytesPrivate(this.#path, async (bytes) => {
          while (moved.length < cursors.length && cursors[moved.length]!.offset <= oldAt) moved.push(newAt);
          oldAt += bytes.length + 1;
          const line = bytes.toString('utf8');
          if (line.trim() === '') return;
          // A line of an id not acknowledged stays as it is: read for its id only, not parsed
          // (a parse of every line left made each acknowledgement a parse of the whole file).
          const id = lineId(line);
          if (id !== null && !acked.has(id)) {
            before.add(id);
            return keep(id, line);
          }
          const r = record(line);
          if (r === null) return; // the header, or a line cut by a crash: nothing to deliver
          before.add(r.id);
          const copy = acked.has(r.id) ? handed.get(r.id) : undefined;
          if (copy && !supersedes(r, copy)) return;
          await keep(r.id, line);
        }, this.#pieceBytes);
        if (before.size === 0) return { removed: 0, left: 0 };
        await flushPending();
        if (out) await (out as { commit(): Promise<void> }).commit();
        else await truncatePrivate(this.#path);
        while (moved.length < cursors.length) moved.push(newAt);
        cursors.forEach((c, i) => { c.offset = out ? moved[i]! : 0; });
      } catch (err) {
        if (out) await (out as { abort(): Promise<void> }).abort();
        throw err;
      }
      this.#ids = left;
      return { removed: before.size - left.size, left: left.size };
    }));
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
