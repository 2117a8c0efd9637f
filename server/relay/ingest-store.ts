// The open records `wrap` sends to `POST /relay/ingest`, held so that later sends can be
// deltas (relay-push.ts): a record once, then only the events it gained. Held records are
// bounded as the relay's own open exchanges are: each body at most `maxRecorded` bytes, and
// all of them together within the relay's recording budget (shared with relayed traffic).
//
// Hazard: a batch is checked whole before any of it is taken, so a refused batch changes
// nothing; only the budget can run out part way, and then the batch is refused as busy
// (its sender files it instead; a later whole copy of an id replaces what was taken).
import type { DeltaPush } from '../../worker/capture/relay-push.js';
import { readEvents } from '../../worker/capture/record-read.js';
import { isProblem } from '../../worker/capture/fields.js';
import type { ExchangeRecord, SseEventRecord } from '../../worker/protocol.js';
import type { RecordingBudget } from './recording-budget.js';

/** Where a record goes once taken: 'request' (first, open), 'event' (grew), 'end' (final). */
export type IngestStage = 'request' | 'event' | 'end';

/** Why a batch was refused: the HTTP status and the message. */
export interface IngestRefusal { status: number; message: string }

interface Held { record: ExchangeRecord; bytes: number }

const utf8 = (s: string | undefined) => (s === undefined ? 0 : Buffer.byteLength(s));
const eventBytes = (events: readonly SseEventRecord[] | undefined) => (events ?? []).reduce((n, e) => n + utf8(e.data), 0);
/** Bytes of body a record holds: its request's, and its response's (body, events, tail). */
export function recordBodyBytes(r: ExchangeRecord): { request: number; response: number } {
  const res = r.response;
  return { request: utf8(r.request.body), response: res ? utf8(res.body) + eventBytes(res.events) + utf8(res.tail) : 0 };
}

/** The held open records of ingested exchanges. */
export class IngestedRecords {
  readonly #held = new Map<string, Held>();
  readonly #budget: RecordingBudget;
  readonly #max: number;
  readonly #deliver: (record: ExchangeRecord, stage: IngestStage) => void;
  /** Ingest bodies being read now (stdio-ingest.ts bounds them). */
  reading = 0;

  constructor(budget: RecordingBudget, maxRecorded: number, deliver: (record: ExchangeRecord, stage: IngestStage) => void) {
    this.#budget = budget;
    this.#max = maxRecorded;
    this.#deliver = deliver;
  }

  /** Open records held now. */
  get size(): number {
    return this.#held.size;
  }

  /**
   * Takes one batch: whole records and deltas. Returns the ids whose delta had no base
   * here (the sender should send them whole), or why the batch was refused.
   */
  take(items: readonly (ExchangeRecord | DeltaPush)[]): { resend: string[] } | IngestRefusal {
    // First pass: every item checked, nothing changed.
    const grown = new Map<string, number>();
    for (const [i, item] of items.entries()) {
      const problem = 'kind' in item ? this.#checkDelta(item, grown) : this.#checkWhole(item);
      if (problem) return { status: 413, message: `Record ${i}: ${problem}` };
    }
    const resend: string[] = [];
    for (const item of items) {
      const ok = 'kind' in item ? this.#applyDelta(item) : this.#applyWhole(item);
      if (ok === 'resend') resend.push((item as DeltaPush).id);
      else if (ok === 'full') return { status: 503, message: `The relay holds all it may for recording (${this.#budget.limit} bytes across open exchanges); retry shortly.` };
    }
    return { resend };
  }

  #over(what: string, n: number): string {
    return `its ${what} holds ${n} bytes, more than the ${this.#max} the relay records of one exchange`;
  }

  #checkWhole(r: ExchangeRecord): string | undefined {
    const b = recordBodyBytes(r);
    if (b.request > this.#max) return this.#over('request body', b.request);
    if (b.response > this.#max) return this.#over('response', b.response);
    return undefined;
  }

  #checkDelta(d: DeltaPush, grown: Map<string, number>): string | undefined {
    if (d.events === undefined) return undefined;
    const read = readEvents(d.events, 'events');
    if (isProblem(read)) return `${read.where}: ${read.message}`;
    d.events = read; // the checked copy is what is kept
    const held = this.#held.get(d.id);
    const base = grown.get(d.id) ?? (held ? recordBodyBytes(held.record).response : 0);
    const total = base + eventBytes(read);
    grown.set(d.id, total);
    return total > this.#max ? this.#over('response', total) : undefined;
  }

  #applyWhole(r: ExchangeRecord): 'ok' | 'full' {
    const had = this.#held.get(r.id);
    if (had) this.#release(r.id);
    if (r.state === 'pending' || r.state === 'streaming') {
      const b = recordBodyBytes(r);
      const bytes = b.request + b.response;
      if (!this.#budget.take(bytes)) return 'full';
      this.#held.set(r.id, { record: r, bytes });
      this.#deliver(r, had ? 'event' : 'request');
      return 'ok';
    }
    this.#deliver(r, 'end');
    return 'ok';
  }

  // A delta continues the held copy in place (the page hub's per-page counts index its
  // events), or is sent back when the copy is missing or does not line up.
  #applyDelta(d: DeltaPush): 'ok' | 'full' | 'resend' {
    const held = this.#held.get(d.id);
    const rec = held?.record;
    const have = rec?.response?.events?.length ?? 0;
    if (!held || !rec || (d.events !== undefined && d.from !== have)) return 'resend';
    const events = d.events as SseEventRecord[] | undefined;
    const add = eventBytes(events);
    if (!this.#budget.take(add)) return 'full';
    held.bytes += add;
    if (d.response && typeof d.response.receivedAt === 'number') rec.response ??= { status: 200, headers: [], receivedAt: d.response.receivedAt, events: [] };
    if (events?.length) {
      if (!rec.response) return 'resend';
      const into = (rec.response.events ??= []);
      for (const e of events) into.push(e);
    }
    const t = d.response?.truncated;
    if (rec.response && t && typeof t.recordedBytes === 'number' && typeof t.totalBytes === 'number') rec.response.truncated = { recordedBytes: t.recordedBytes, totalBytes: t.totalBytes };
    if (d.state === 'pending' || d.state === 'streaming') rec.state = d.state;
    this.#deliver(rec, 'event');
    return 'ok';
  }

  #release(id: string): void {
    const h = this.#held.get(id);
    if (!h) return;
    this.#budget.give(h.bytes);
    this.#held.delete(id);
  }

  /** Forgets every held record (relay shutdown). */
  clear(): void {
    for (const id of [...this.#held.keys()]) this.#release(id);
  }
}
