// Where the wrap's records go: the running inspector's relay (`POST /relay/ingest` with the
// relay token), or, when there is none or it goes away, the relay's JSONL capture file,
// which the page drains when it next opens. Records are batched (latest copy per id) and
// posted one batch at a time, so a burst costs a few requests, never one per message; an
// open record the relay already holds is sent as what changed since (a delta).
//
// Hazard: a batch whose POST failed may or may not have arrived; it is written to the file
// as well. That is safe because a later line for the same id replaces an earlier one
// everywhere records are read, and the copy in the file is never older than what was sent.
import { dirname } from 'node:path';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { JSONL_KIND, JSONL_VERSION, jsonlLine } from '../../worker/capture/jsonl.js';
import { deltaPush, eventCount } from '../../worker/capture/relay-push.js';
import { relayDir } from '../../server/relay/capture-path.js';
import { withFileLock } from '../../server/relay/file-lock.js';
import { terminalSafe } from '../../worker/report/terminal-safe.js';
import { appendPrivate, ensurePrivateDir } from '../../server/relay/private-files.js';
import { ingestAgent, postText } from './ingest-post.js';

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

/** How long one ingest POST may take before the relay counts as gone (records go to the file). */
const POST_TIMEOUT_MS = 10_000;

/** The most JSON one ingest POST carries (a single bigger record still goes alone). */
export const BATCH_BYTES = 8 * 1024 * 1024;

/** Collects records and delivers them, to the relay while it answers, else to the file.
 *
 *  Hazard: the pairing goes on changing a record after it is put (events appended, state,
 *  exit info), so the sink holds the live record and serialises it when it sends. An open
 *  record the relay already holds is sent as a delta (relay-push.ts): the events since the
 *  last send, never the whole record again (a progress flood once re-sent it every 100 ms). */
export class RecordSink {
  readonly #o: SinkOptions;
  /** Aborted by close(): no more waiting on the relay. */
  readonly #stop = new AbortController();
  readonly #agent = ingestAgent();
  #queue = new Map<string, ExchangeRecord>();
  #open = new Map<string, ExchangeRecord>();
  #openTimer: ReturnType<typeof setTimeout> | undefined;
  #mode: 'relay' | 'file';
  #busy: Promise<void> | null = null;
  #scheduled = false;
  #fileChain: Promise<void> = Promise.resolve();
  /** Open records the relay holds, with how many of their events it has. */
  readonly #relayHas = new Map<string, number>();
  /** Open records with a line in the file (the next line for them is their final one). */
  readonly #filed = new Set<string>();
  #posted = 0;
  #posts = 0;
  #bytesPosted = 0;
  #written = 0;

  constructor(o: SinkOptions) {
    this.#o = o;
    this.#mode = o.inspector ? 'relay' : 'file';
  }

  /** 'relay' while the inspector takes records, 'file' after it did not. */
  get mode(): 'relay' | 'file' {
    return this.#mode;
  }

  /** Records accepted by the relay and lines written to the file so far, and the ingest
   *  POSTs sent with their body bytes. */
  get counts(): { posted: number; written: number; posts: number; bytesPosted: number } {
    return { posted: this.#posted, written: this.#written, posts: this.#posts, bytesPosted: this.#bytesPosted };
  }

  /** Queues the record (sent as it stands at send time; later changes win). An open
   *  record waits OPEN_DELAY_MS first: most answers come sooner, and then only the finished
   *  copy is sent (half the work in a burst); a slow call still shows up live. */
  put(record: ExchangeRecord): void {
    if (!isFinal(record)) {
      if (this.#queue.has(record.id)) return;
      this.#open.set(record.id, record);
      this.#openTimer ??= setTimeout(() => {
        this.#openTimer = undefined;
        for (const [id, r] of this.#open) this.#queue.set(id, r);
        this.#open.clear();
        this.#schedule();
      }, OPEN_DELAY_MS);
      return;
    }
    this.#open.delete(record.id);
    // Exchange numbers are given in the order records first reach the relay or the file, so
    // the open records begun before this one go first: a call waiting for its answer is
    // numbered before the client's answer to the server request it made (wire order).
    for (const [id, r] of this.#open) {
      if (r.seq > record.seq) break;
      this.#queue.set(id, r);
      this.#open.delete(id);
    }
    this.#queue.set(record.id, record);
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
  /** Delivers what is left, giving the relay at most `limitMs`: then the POST in flight is
   *  abandoned and everything not yet delivered goes to the file. Resolves once it is
   *  written, so wrap can exit with its server even while the inspector does not answer. */
  async close(limitMs: number): Promise<void> {
    const timer = setTimeout(() => this.#stop.abort(), limitMs);
    try {
      await this.flush();
    } finally {
      clearTimeout(timer);
      this.#agent.destroy();
    }
  }

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
    this.#busy = (this.#mode === 'relay' ? this.#post() : this.#write(this.#take())).finally(() => {
      this.#busy = null;
      if (this.#queue.size > 0) void this.#pump();
    });
    return this.#busy;
  }

  // Takes the whole queue (for the file), or (for the relay) records up to BATCH_BYTES.
  #take(serialise?: (r: ExchangeRecord) => string): { records: ExchangeRecord[]; texts: string[] } {
    const records: ExchangeRecord[] = [];
    const texts: string[] = [];
    let size = 0;
    for (const [id, r] of this.#queue) {
      if (serialise && records.length > 0 && size >= BATCH_BYTES) break;
      this.#queue.delete(id);
      records.push(r);
      if (serialise) {
        const t = serialise(r);
        texts.push(t);
        size += t.length;
      }
    }
    return { records, texts };
  }

  async #post(): Promise<void> {
    const { url, token } = this.#o.inspector!;
    // What the relay will hold once this batch lands: counted now, as the records stand.
    const counts = new Map<string, number>();
    const batch = this.#take((r) => {
      counts.set(r.id, eventCount(r));
      const has = this.#relayHas.get(r.id);
      // A final record goes whole, once: it may carry fields a delta does not (stdio exit info).
      return JSON.stringify(has === undefined || isFinal(r) ? r : deltaPush(r, 'head', has));
    });
    let problem: string | undefined;
    try {
      // A stopped inspector still accepts the connection and never answers: give up on it
      // after a while, and at once when wrap must exit (close()).
      const signal = AbortSignal.any([this.#stop.signal, AbortSignal.timeout(POST_TIMEOUT_MS)]);
      const body = `[${batch.texts.join(',')}]`;
      this.#posts++;
      this.#bytesPosted += body.length;
      const res = await postText(this.#agent, new URL(INGEST_PATH, url), { 'content-type': 'application/json', [TOKEN_HEADER]: token }, body, signal);
      const text = res.text;
      if (res.ok) {
        this.#posted += batch.records.length;
        for (const r of batch.records) {
          if (isFinal(r)) this.#relayHas.delete(r.id);
          else this.#relayHas.set(r.id, counts.get(r.id)!);
        }
        // Ids the relay no longer holds (it restarted): sent whole with the next batch.
        for (const id of resendOf(text)) {
          this.#relayHas.delete(id);
          const r = batch.records.find((x) => x.id === id);
          if (r && !this.#queue.has(id)) this.#queue.set(id, r);
        }
        return;
      }
      problem = `the inspector at ${url} refused the records (HTTP ${res.status}: ${terminalSafe(text.slice(0, 200))})`;
      if (res.status === 503) {
        // Busy, not gone: this batch goes to the file, the next ones to the relay again.
        this.#o.warn(`mrtr-inspector wrap: ${problem}; some records go to ${this.#o.file} instead.`);
        await this.#write(batch);
        return;
      }
    } catch (err) {
      problem = this.#stop.signal.aborted
        ? `the inspector at ${url} had not taken the last records when the server ended`
        : (err as Error).name === 'TimeoutError'
          ? `the inspector at ${url} did not answer within ${POST_TIMEOUT_MS / 1000} s`
          : `the inspector at ${url} cannot be reached (${terminalSafe((err as Error).message)})`;
    }
    this.#mode = 'file';
    this.#o.warn(`mrtr-inspector wrap: ${problem}; recording to ${this.#o.file} instead (the inspector page drains it when it opens).`);
    await this.#write(batch);
  }

  // The file gets an open record once (when first seen) and its final copy; the steps in
  // between would each be a whole line (the last line for an id wins when it is read).
  #write(batch: { records: ExchangeRecord[] }): Promise<void> {
    const lines: string[] = [];
    for (const r of batch.records) {
      if (!isFinal(r)) {
        if (this.#filed.has(r.id)) continue;
        this.#filed.add(r.id);
      } else this.#filed.delete(r.id);
      lines.push(jsonlLine(r));
    }
    if (lines.length === 0) return this.#fileChain;
    const text = lines.join('');
    const path = this.#o.file;
    const job = this.#fileChain.then(async () => {
      try {
        // The same checks as the relay's: a folder of ours (0700 for the default one in the
        // shared temp folder), the file 0600 and never reached through a symlink.
        ensurePrivateDir(dirname(path), dirname(path) === relayDir());
        const header = JSON.stringify({ kind: JSONL_KIND, version: JSONL_VERSION, createdAt: new Date().toISOString() }) + '\n';
        // Under the file's lock: the relay may be rewriting this file (file-lock.ts).
        await withFileLock(path, () => appendPrivate(path, (size) => (size === 0 ? header + text : text)));
        this.#written += lines.length;
      } catch (err) {
        this.#o.warn(`mrtr-inspector wrap: cannot write records to ${path}: ${(err as Error).message}. Set MRTR_RELAY_JSONL to a writable path.`);
      }
    });
    this.#fileChain = job;
    return job;
  }
}

const isFinal = (r: ExchangeRecord) => r.state !== 'pending' && r.state !== 'streaming';

// The relay's answer to an ingest: `{ accepted, resend?: [ids] }`.
function resendOf(text: string): string[] {
  try {
    const v = JSON.parse(text) as { resend?: unknown };
    return Array.isArray(v.resend) ? v.resend.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
