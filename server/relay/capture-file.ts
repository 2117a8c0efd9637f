import { appendFile, mkdir, readFile, stat, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ExchangeRecord } from '../../worker/protocol.js';

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
 * Race: appends and the page's backlog drain are serialised on one promise chain, so a
 * drain reads and truncates with no append in between; an append that arrives meanwhile
 * waits and lands in the emptied file. Nothing is lost and nothing is read twice, as long
 * as one inspector process owns the file.
 */
export class CaptureFile {
  #path: string;
  #chain: Promise<unknown> = Promise.resolve();
  /** Ids with a line in the file (landed), and ids with a line still queued. */
  #ids = new Set<string>();
  #queued = new Map<string, number>();
  #warn: (message: string) => void;
  #warned = false;

  constructor(path: string, warn: (message: string) => void) {
    this.#path = path;
    this.#warn = warn;
  }

  get path(): string {
    return this.#path;
  }

  /** True when this process has a line for the id in the file since the last drain. */
  has(id: string): boolean {
    return this.#ids.has(id) || this.#queued.has(id);
  }

  /** Appends one record as one line (serialised now, so later mutation cannot leak in). */
  append(record: ExchangeRecord): Promise<void> {
    const line = JSON.stringify(record) + '\n';
    const id = record.id;
    this.#queued.set(id, (this.#queued.get(id) ?? 0) + 1);
    return this.#enqueue(async () => {
      // A drain clears only landed ids: a line queued behind a drain lands in the emptied
      // file and must still count as "in the file" afterwards.
      const left = (this.#queued.get(id) ?? 1) - 1;
      if (left > 0) this.#queued.set(id, left);
      else this.#queued.delete(id);
      this.#ids.add(id);
      try {
        await mkdir(dirname(this.#path), { recursive: true });
        const size = await stat(this.#path).then((s) => s.size, () => 0);
        await appendFile(this.#path, size === 0 ? jsonlHeader() + '\n' + line : line);
      } catch (err) {
        // A full disk or a read-only directory must not break the client's traffic; say it
        // once, loudly, with the fix.
        if (!this.#warned) this.#warn(`Cannot write relay captures to ${this.#path}: ${(err as Error).message}. Set MRTR_RELAY_JSONL to a writable path.`);
        this.#warned = true;
      }
    });
  }

  /**
   * Hands the whole file to `deliver` and truncates it only when `deliver` resolves true
   * (the page got every byte). Returns what `deliver` returned.
   */
  drain(deliver: (content: string) => Promise<boolean>): Promise<boolean> {
    return this.#enqueue(async () => {
      let content = '';
      try {
        content = await readFile(this.#path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const delivered = await deliver(content);
      if (delivered && content !== '') {
        await truncate(this.#path, 0);
        this.#ids.clear();
      }
      return delivered;
    });
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
