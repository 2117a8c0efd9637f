// What the relay pushes to an open inspector page over /relay/api/events, one message per
// event's data, and how the page rebuilds the record from it. Shared by the relay (Node)
// and the page, so both read one definition; plain JSON, structured-cloneable.
//
// Why deltas: a streaming exchange is pushed at every step (request, head, events, end).
// Re-sending the whole record each time costs O(n²) bytes over a long stream (a 2 MB stream
// of 1 KB events once took the relay to 2 GB). So a page gets an id's record so far once,
// the first time it hears of that id (including when it joins mid-exchange), and after
// that only what is new: the events appended since its last push, the response head when
// it arrives, and the final fields at the end.
import type { ExchangeRecord, ExchangeState, SseEventRecord } from '../protocol.js';
import { readEvents, readRecord } from './record-read.js';
import { isProblem } from './fields.js';

/** Version of the push format; a page ignores messages of a version it does not know. */
export const RELAY_PUSH_VERSION = 1;

/** The record so far, whole: the first push of an id to a page, and records made elsewhere. */
export interface RecordPush {
  push: typeof RELAY_PUSH_VERSION;
  kind: 'record';
  record: ExchangeRecord;
}

/** The response fields other than its events. */
export type ResponseFields = Omit<NonNullable<ExchangeRecord['response']>, 'events'>;

/** What changed since this page's last push of the id. */
export interface DeltaPush {
  push: typeof RELAY_PUSH_VERSION;
  kind: 'delta';
  id: string;
  state: ExchangeState;
  /** Events appended at index `from` of the record's events (the count the page has). */
  from?: number;
  events?: SseEventRecord[];
  /** Set when the response head arrived, and again at the end (with body, tail, truncated). */
  response?: ResponseFields;
  endedAt?: number;
  error?: string;
}

export type RelayPush = RecordPush | DeltaPush;

/** Which step of an exchange a push is for: only the head and the end change the response fields. */
export type PushStage = 'request' | 'head' | 'event' | 'end';

/** The whole-record push. */
export function recordPush(record: ExchangeRecord): RecordPush {
  return { push: RELAY_PUSH_VERSION, kind: 'record', record };
}

/** What is new in `record` for a page that holds its first `sent` events and the fields up to the last stage. */
export function deltaPush(record: ExchangeRecord, stage: PushStage, sent: number): DeltaPush {
  const out: DeltaPush = { push: RELAY_PUSH_VERSION, kind: 'delta', id: record.id, state: record.state };
  const events = record.response?.events;
  if (events && events.length > sent) {
    out.from = sent;
    out.events = events.slice(sent);
  }
  if (record.response && (stage === 'head' || stage === 'end')) {
    const { events: _events, ...fields } = record.response;
    out.response = fields;
  }
  if (stage === 'end') {
    if (record.endedAt !== undefined) out.endedAt = record.endedAt;
    if (record.error !== undefined) out.error = record.error;
  }
  return out;
}

/** The events a record holds (what the next delta's `from` counts from). */
export function eventCount(record: ExchangeRecord): number {
  return record.response?.events?.length ?? 0;
}

/**
 * Reads one pushed message (parsed JSON) against the page's copy of that id, if any.
 * Returns the record as it now stands (a fresh object; `have` is not changed), or
 * undefined when the message is not usable: an unknown version or shape, or a delta the
 * page has no base for or that does not continue it (then the page waits for the next
 * whole record, or the backlog, rather than store a record with a hole).
 * A message in the older format (a bare record) is taken as a whole record.
 */
export function applyPush(message: unknown, have: (id: string) => ExchangeRecord | undefined): ExchangeRecord | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  // Loose on purpose: every field is checked before use.
  const m = message as Partial<Omit<DeltaPush, 'kind'> & Omit<RecordPush, 'kind'>> & { kind?: string; v?: unknown };
  if (m.push === undefined && m.v !== undefined) return readWhole(m);
  if (m.push !== RELAY_PUSH_VERSION) return undefined;
  if (m.kind === 'record') return readWhole(m.record);
  if (m.kind !== 'delta' || typeof m.id !== 'string') return undefined;
  const base = have(m.id);
  if (!base) return undefined;
  const next: ExchangeRecord = { ...base, state: m.state ?? base.state };
  if (m.endedAt !== undefined) next.endedAt = m.endedAt;
  if (m.error !== undefined) next.error = m.error;
  const had = base.response?.events ?? [];
  let events: SseEventRecord[] | undefined = base.response?.events;
  if (m.events !== undefined) {
    if (m.from !== had.length) return undefined;
    const read = readEvents(m.events, 'events');
    if (isProblem(read)) return undefined;
    events = had.concat(read);
  }
  const fields = m.response ?? (base.response && { ...base.response });
  if (fields) {
    const { events: _drop, ...rest } = fields as NonNullable<ExchangeRecord['response']>;
    next.response = { ...rest, ...(events ? { events } : {}) };
  }
  // The shared reader checks the result's shape, as for any record from outside.
  return readWhole(next);
}

function readWhole(v: unknown): ExchangeRecord | undefined {
  const seq = (v as { seq?: unknown } | null)?.seq;
  const read = readRecord(v, 'push', typeof seq === 'number' ? seq : 0);
  return isProblem(read) ? undefined : read;
}
