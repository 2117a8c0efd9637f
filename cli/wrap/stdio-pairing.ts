// Turns the lines of a stdio MCP conversation into exchange records: each client request is
// paired with the server's answer by JSON-RPC id, and what the server says while exactly
// one request is open (progress, logs, legacy server-to-client requests) joins that
// request's record, the way an HTTP call's event stream would carry it. No Node APIs: the
// wrap process feeds it lines, tests feed it strings.
//
// Hazard: ids belong to the client, who may reuse one after its answer or (wrongly) while it
// is still open; pairing keys on the open set only, and a reused open id closes the older
// record as aborted rather than letting two records wait for one answer.
//
// Hazard: lines read together share one clock reading, so two lines' times could not say
// which came first, and the legacy threader judges which call a server request belongs to
// by what came before it (worker/thread/legacy.ts). Each line's time is therefore made a
// microsecond later than the line before it (in either direction) when the clock has not
// moved: times stay true to the millisecond, and their order is the order on the wire.
//
// Hazard: the server decides how much it says. A record keeps at most `maxRecorded` bytes of
// what the server said (progress, logs, the answer), as the relay keeps of a body, and all
// open records together at most what the shared budget allows; the rest is counted, not
// kept, and the record says so (`response.truncated`).
import { PROTOCOL_VERSION, type ExchangeRecord, type StdioInfo } from '../../worker/protocol.js';
import { MAX_RECORDED_BYTES } from '../../server/relay/exchange-recorder.js';
import type { RecordingBudget } from '../../server/relay/recording-budget.js';
import { cutMessage } from './cut-line.js';

/** What the recorder says about a record: it started (or changed), or it ended. */
export type PairingStage = 'start' | 'end';

export interface PairingOptions {
  /** The server's name: URL `stdio://<name>`. */
  name: string;
  /** The client identity threading keeps chains apart by (one per wrap process). */
  client: string;
  emit(record: ExchangeRecord, stage: PairingStage): void;
  now?: () => number;
  newId?: () => string;
  /** The most bytes of one record's request, and of its response, kept (default MAX_RECORDED_BYTES). */
  maxRecorded?: number;
  /** Shared by all open records: what does not fit is not kept. */
  budget?: RecordingBudget;
}

/** What is known of a line besides its text: its size, and for a line cut by the splitter,
 *  its whole size and last characters. Without it the text's length is its size. */
export interface LineInfo {
  bytes: number;
  totalBytes?: number;
  tail?: string;
}

/** How the server process ended. */
export interface ExitInfo { code: number | null; signal: string | null; stderrTail: string }

/** The signal wrap passed on to the server because its own client sent it (a shutdown). */
export interface StopRequest { signal: string }

interface Open {
  record: ExchangeRecord;
  /** Request ids (canonical text) still waiting for an answer. */
  waiting: Set<string>;
  /** Bytes of the response seen and kept, and taken from the budget. */
  seen: number;
  kept: number;
  taken: number;
  full: boolean;
}

/** How much later than the previous line a line read at the same time is stamped (1 µs). */
export const WIRE_STEP_MS = 0.001;

// A JSON-RPC message's id as a map key: 1 and "1" are different ids.
const idKey = (id: unknown): string => JSON.stringify(id) ?? 'undefined';

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRequest = (m: unknown): m is { id: unknown; method: string } =>
  isObject(m) && typeof m.method === 'string' && 'id' in m && m.id !== undefined;
const isAnswer = (m: unknown): m is { id: unknown } => isObject(m) && typeof m.method !== 'string' && ('result' in m || 'error' in m) && 'id' in m;

/** Pairs one stdio conversation's lines into records. */
export class StdioPairing {
  readonly #o: PairingOptions;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #url: string;
  readonly #open = new Map<string, Open>();
  readonly #max: number;
  #seq = 0;
  #ids = 0;
  /** The time given to the last line, in either direction. */
  #lastT = -Infinity;

  constructor(o: PairingOptions) {
    this.#o = o;
    this.#now = o.now ?? Date.now;
    this.#max = o.maxRecorded ?? MAX_RECORDED_BYTES;
    this.#url = `stdio://${encodeURIComponent(o.name)}`;
    this.#newId = o.newId ?? (() => `stdio-${o.client}-${++this.#ids}`);
  }

  /** Records still waiting for an answer. */
  get pending(): number {
    return new Set([...this.#open.values()].map((o) => o.record)).size;
  }

  /** A line the client wrote to the server (without its newline). */
  clientLine(text: string, at = this.#now(), line?: LineInfo): void {
    const t = this.#wireTime(at);
    const msg = line?.totalBytes !== undefined ? cutRequest(text, line.tail ?? '') : parse(text);
    const requests = Array.isArray(msg) ? msg.filter(isRequest) : isRequest(msg) ? [msg] : [];
    if (requests.length === 0) {
      // Notifications, answers to server requests, and lines that are not JSON: one record
      // each, finished at once (stdio has no acknowledgement to wait for).
      const record = this.#record('POST', t, text, line);
      record.state = 'complete';
      record.endedAt = t;
      this.#o.emit(record, 'end');
      return;
    }
    const open: Open = { record: this.#record('POST', t, text, line), waiting: new Set(), seen: 0, kept: 0, taken: 0, full: false };
    const record = open.record;
    const body = line?.bytes ?? text.length;
    if (record.request.body !== undefined && !this.#take(open, Math.min(body, this.#max))) {
      // The open records hold all they may: this request's text is not kept.
      delete record.request.body;
      record.request.truncated = { recordedBytes: 0, totalBytes: line?.totalBytes ?? body };
      open.full = false;
    }
    for (const r of requests) {
      const key = idKey(r.id);
      const older = this.#open.get(key);
      if (older) this.#abort(older, `the client sent another request with id ${key} before this one was answered`, t);
      open.waiting.add(key);
      this.#open.set(key, open);
    }
    this.#o.emit(record, 'start');
  }

  /** A line the server wrote to the client (without its newline). */
  serverLine(text: string, at = this.#now(), line?: LineInfo): void {
    const t = this.#wireTime(at);
    const cut = line?.totalBytes !== undefined;
    const msg = cut ? cutAnswer(text, line.tail ?? '') : parse(text);
    const answers = Array.isArray(msg) ? msg.filter(isAnswer) : isAnswer(msg) ? [msg] : [];
    const target = answers.length > 0 ? this.#open.get(idKey(answers[0].id)) : this.#onlyOpen();
    const size = line?.bytes ?? text.length;
    const total = line?.totalBytes ?? size;
    if (!target) {
      // Nothing to attach it to: a record of its own, like a legacy GET stream's event.
      const record = this.#record('GET', t, undefined);
      const kept = size <= this.#max ? text : cutText(text, this.#max);
      record.response = { status: 200, headers: [], receivedAt: t, events: [{ t, data: kept }] };
      if (kept !== text || cut) record.response.truncated = { recordedBytes: Math.min(size, this.#max), totalBytes: total };
      record.state = 'complete';
      record.endedAt = t;
      this.#o.emit(record, 'end');
      return;
    }
    const rec = target.record;
    rec.response ??= { status: 200, headers: [], receivedAt: t, events: [] };
    this.#keepEvent(target, t, text, size, total);
    for (const a of answers) {
      const key = idKey(a.id);
      if (this.#open.get(key) === target) {
        target.waiting.delete(key);
        this.#open.delete(key);
      }
    }
    if (answers.length > 0 && target.waiting.size === 0) {
      rec.state = 'complete';
      rec.endedAt = t;
      this.#release(target);
      this.#o.emit(rec, 'end');
    } else {
      rec.state = 'streaming';
      this.#o.emit(rec, 'start');
    }
  }

  /** The server process ended: every open record is aborted with how it ended, and an
   *  abnormal end leaves one more record carrying it, so the capture shows the crash even
   *  when nothing was in flight. */
  exit(info: ExitInfo, t = this.#now(), stopped?: StopRequest): void {
    // A server ending from the signal its client sent to stop it (passed on by wrap) is a
    // normal shutdown, not a crash: the SDKs' stdio clients close with SIGTERM.
    const asked = stopped !== undefined && info.signal === stopped.signal;
    const how = asked ? `was stopped by its client (${info.signal})` : info.signal ? `was killed by ${info.signal}` : `exited with code ${info.code}`;
    const tail = info.stderrTail && !asked ? `; its last stderr output: ${info.stderrTail.slice(-500)}` : '';
    for (const o of new Set(this.#open.values())) {
      o.record.stdio = { ...o.record.stdio!, exit: info };
      this.#abort(o, `the server process ${how} before answering${tail}`, t);
    }
    if (asked || (info.code === 0 && info.signal === null)) return;
    const record = this.#record('GET', t, undefined);
    record.stdio = { ...record.stdio!, exit: info };
    record.state = 'failed';
    record.endedAt = t;
    record.error = `the server process ${how}${tail}`;
    this.#o.emit(record, 'end');
  }

  // Keeps what fits of one line of the server's in the open record (whole, or its start
  // when it is the line that fills the record), and counts the rest.
  #keepEvent(o: Open, t: number, text: string, size: number, total: number): void {
    o.seen += total;
    const res = o.record.response!;
    if (!o.full) {
      const room = this.#max - o.kept;
      const fits = size <= room && total === size;
      const keep = fits ? size : Math.min(room, size);
      if (keep > 0 && this.#take(o, keep)) {
        res.events!.push({ t, data: fits ? text : cutText(text, keep) });
        o.kept += keep;
      }
      if (!fits || keep === 0) o.full = true;
    }
    if (o.full) res.truncated = { recordedBytes: o.kept, totalBytes: o.seen };
  }

  // Bytes held by open records are taken from the shared budget, given back at their end.
  #take(o: Open, n: number): boolean {
    if (!this.#o.budget || n === 0) return true;
    if (!this.#o.budget.take(n)) {
      o.full = true;
      return false;
    }
    o.taken += n;
    return true;
  }

  #release(o: Open): void {
    this.#o.budget?.give(o.taken);
    o.taken = 0;
  }

  // The line's time, later than the previous line's: wire order survives a shared reading.
  #wireTime(at: number): number {
    this.#lastT = at > this.#lastT ? at : this.#lastT + WIRE_STEP_MS;
    return this.#lastT;
  }

  #onlyOpen(): Open | undefined {
    const distinct = new Set(this.#open.values());
    return distinct.size === 1 ? [...distinct][0] : undefined;
  }

  #abort(o: Open, why: string, t: number): void {
    for (const k of o.waiting) if (this.#open.get(k) === o) this.#open.delete(k);
    o.waiting.clear();
    this.#release(o);
    o.record.state = 'aborted';
    o.record.error = why;
    o.record.endedAt = t;
    this.#o.emit(o.record, 'end');
  }

  #record(method: 'POST' | 'GET', t: number, body: string | undefined, line?: LineInfo): ExchangeRecord {
    const stdio: StdioInfo = { name: this.#o.name };
    const request: ExchangeRecord['request'] = { method, url: this.#url, headers: [] };
    if (body !== undefined) {
      const size = line?.bytes ?? body.length;
      request.body = size > this.#max ? cutText(body, this.#max) : body;
      const total = line?.totalBytes ?? size;
      if (total > this.#max || line?.totalBytes !== undefined) request.truncated = { recordedBytes: Math.min(size, this.#max), totalBytes: total };
    }
    return { v: PROTOCOL_VERSION, id: this.#newId(), seq: this.#seq++, source: 'relay', client: this.#o.client, startedAt: t, request, state: 'pending', stdio };
  }
}

// The first `bytes` bytes of a text's UTF-8, as text (a character cut in two is dropped).
function cutText(text: string, bytes: number): string {
  const head = new TextEncoder().encode(text.length > bytes ? text.slice(0, bytes) : text).subarray(0, bytes);
  return new TextDecoder().decode(head).replace(/\uFFFD$/, '');
}

// A cut line's message as far as its ends tell (cut-line.ts): a request or an answer with
// an id, enough to open or close a record; its params or result are not read.
function cutRequest(head: string, tail: string): unknown {
  const m = cutMessage(head, tail);
  return m.method !== undefined && m.id !== undefined ? { id: m.id, method: m.method } : undefined;
}

function cutAnswer(head: string, tail: string): unknown {
  const m = cutMessage(head, tail);
  return m.method === undefined && m.id !== undefined ? { id: m.id, result: null } : undefined;
}
