// Where the wrap's records go: the running inspector's relay (`POST /relay/ingest` with the
// relay token), or, when there is none or it goes away, the relay's JSONL capture file,
// which the page drains when it next opens. Records are batched (latest copy per id) and
// posted one batch at a time, so a burst costs a few requests, never one per message.
//
// Hazard: a batch whose POST failed may or may not have arrived; it is written to the file
// as well. That is safe because a later line for the same id replaces an earlier one
// everywhere records are read, and the copy in the file is never older than what was sent.
import { dirname } from 'node:path';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { JSONL_KIND, JSONL_VERSION, jsonlLine } from '../../worker/capture/jsonl.js';
import { defaultJsonlPath } from '../../server/relay/capture-path.js';
import { withFileLock } from '../../server/relay/file-lock.js';
import { appendPrivate, ensurePrivateDir } from '../../server/relay/private-files.js';

/** The relay ingest path and the header that carries the token. */
export const INGEST_PATH = '/relay/ingest';
export const TOKEN_HEADER = 'x-mrtr-relay-token';
/** How long an unanswered record waits before its open copy is sent. */
const OPEN_DELAY_MS = 50;
/** How long finished records gather before one delivery: one POST for a run of calls (a
 *  POST per call made the relay compete with the pass-through: +1.96 ms p95 against +0.93). */
const DELIVERY_WINDOW_MS = 100;

export interface SinkOptions {
  /** The inspector's origin (http://127.0.0.1:5173) and relay token; without both, file only. */
  inspector?: { url: string; token: string };
  /** The JSONL capture file to fall back to. */
  file: string;
  /** Says a problem once, on stderr (never stdout: that is the client's). */
  warn(message: string): void;
}

/** Collects records and delivers them, to the relay while it answers, else to the file. */
export class RecordSink {
  readonly #o: SinkOptions;
  #queue = new Map<string, ExchangeRecord>();
  #open = new Map<string, ExchangeRecord>();
  #openTimer: ReturnType<typeof setTimeout> | undefined;
  #mode: 'relay' | 'file';
  #busy: Promise<void> | null = null;
  #scheduled = false;
  #fileChain: Promise<void> = Promise.resolve();
  #posted = 0;
  #written = 0;

  constructor(o: SinkOptions) {
    this.#o = o;
    this.#mode = o.inspector ? 'relay' : 'file';
  }

  /** 'relay' while the inspector takes records, 'file' after it did not. */
  get mode(): 'relay' | 'file' {
    return this.#mode;
  }

  /** Records accepted by the relay and lines written to the file so far. */
  get counts(): { posted: number; written: number } {
    return { posted: this.#posted, written: this.#written };
  }

  /** Queues the record as it is now (serialised at send time; later changes win). An open
   *  record waits OPEN_DELAY_MS first: most answers come sooner, and then only the finished
   *  copy is sent (half the work in a burst); a slow call still shows up live. */
  put(record: ExchangeRecord): void {
    if (record.state === 'pending' || record.state === 'streaming') {
      this.#open.set(record.id, snapshot(record));
      this.#openTimer ??= setTimeout(() => {
        this.#openTimer = undefined;
        for (const [id, r] of this.#open) this.#queue.set(id, r);
        this.#open.clear();
        this.#schedule();
      }, OPEN_DELAY_MS);
      return;
    }
    this.#open.delete(record.id);
    this.#queue.set(record.id, snapshot(record));
    this.#schedule();
  }

  #schedule(): void {
    if (!this.#scheduled) {
      this.#scheduled = true;
      // A short window, not the next tick: a client calling one request after another
      // would otherwise make us post (and the relay parse and file) once per call, and on a
      // small machine that work competes with the pass-through we are measured by.
      setTimeout(() => {
        this.#scheduled = false;
        void this.#pump();
      }, DELIVERY_WINDOW_MS);
    }
  }

  /** Resolves when everything queued so far has been delivered somewhere. */
  async flush(): Promise<void> {
    clearTimeout(this.#openTimer);
    this.#openTimer = undefined;
    for (const [id, r] of this.#open) this.#queue.set(id, r);
    this.#open.clear();
    while (this.#queue.size > 0 || this.#busy) {
      if (this.#busy) await this.#busy;
      else await this.#pump();
    }
    await this.#fileChain;
  }

  #pump(): Promise<void> {
    if (this.#busy || this.#queue.size === 0) return this.#busy ?? Promise.resolve();
    const batch = [...this.#queue.values()];
    this.#queue = new Map();
    this.#busy = (this.#mode === 'relay' ? this.#post(batch) : this.#write(batch)).finally(() => {
      this.#busy = null;
      if (this.#queue.size > 0) void this.#pump();
    });
    return this.#busy;
  }

  async #post(batch: ExchangeRecord[]): Promise<void> {
    const { url, token } = this.#o.inspector!;
    let problem: string | undefined;
    try {
      const res = await fetch(new URL(INGEST_PATH, url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
        body: JSON.stringify(batch),
      });
      const text = await res.text();
      if (res.ok) {
        this.#posted += batch.length;
        return;
      }
      problem = `the inspector at ${url} refused the records (HTTP ${res.status}: ${text.slice(0, 200)})`;
    } catch (err) {
      problem = `the inspector at ${url} cannot be reached (${(err as Error).message})`;
    }
    this.#mode = 'file';
    this.#o.warn(`mrtr-inspector wrap: ${problem}; recording to ${this.#o.file} instead (the inspector page drains it when it opens).`);
    await this.#write(batch);
  }

  #write(batch: ExchangeRecord[]): Promise<void> {
    const text = batch.map(jsonlLine).join('');
    const path = this.#o.file;
    const job = this.#fileChain.then(async () => {
      try {
        // The same checks as the relay's: a folder of ours (0700 for the default one in the
        // shared temp folder), the file 0600 and never reached through a symlink.
        ensurePrivateDir(dirname(path), path === defaultJsonlPath());
        const header = JSON.stringify({ kind: JSONL_KIND, version: JSONL_VERSION, createdAt: new Date().toISOString() }) + '\n';
        // Under the file's lock: the relay may be rewriting this file (file-lock.ts).
        await withFileLock(path, () => appendPrivate(path, (size) => (size === 0 ? header + text : text)));
        this.#written += batch.length;
      } catch (err) {
        this.#o.warn(`mrtr-inspector wrap: cannot write records to ${path}: ${(err as Error).message}. Set MRTR_RELAY_JSONL to a writable path.`);
      }
    });
    this.#fileChain = job;
    return job;
  }
}

// A copy that freezes the record's present state: the pairing goes on changing its state,
// events and exit info, never the strings, so those are shared (a deep clone would copy a
// 50 MB line on every update).
function snapshot(r: ExchangeRecord): ExchangeRecord {
  const copy: ExchangeRecord = { ...r };
  if (r.response) copy.response = { ...r.response, ...(r.response.events ? { events: r.response.events.slice() } : {}) };
  if (r.stdio) copy.stdio = { ...r.stdio };
  return copy;
}
