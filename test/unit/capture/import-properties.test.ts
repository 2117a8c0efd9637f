import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportHar, exportJsonl, importCapture, parseEventStreamText, serializeEventStream } from '../../../worker/capture/index.js';
import type { ExchangeRecord, SseEventRecord } from '../../../worker/protocol.js';

const SOURCES = ['sw', 'relay', 'import', 'console'];
const STATES = ['pending', 'streaming', 'complete', 'aborted', 'failed'];
const isFiniteNumber = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
const isHeaders = (h: unknown) => Array.isArray(h) && h.every((p) => typeof p.name === 'string' && typeof p.value === 'string');
const isOptString = (x: unknown) => x === undefined || typeof x === 'string';

/** Every field ExchangeRecord requires is there with the right type; optional ones are typed when present. */
function expectWellFormed(r: ExchangeRecord, seqs: Set<number>) {
  expect(isFiniteNumber(r.v)).toBe(true);
  expect(typeof r.id === 'string' && r.id.length > 0).toBe(true);
  expect(Number.isInteger(r.seq) && r.seq >= 0 && !seqs.has(r.seq)).toBe(true);
  seqs.add(r.seq);
  expect(SOURCES).toContain(r.source);
  expect(STATES).toContain(r.state);
  expect(isFiniteNumber(r.startedAt)).toBe(true);
  expect(typeof r.request.method).toBe('string');
  expect(typeof r.request.url).toBe('string');
  expect(isHeaders(r.request.headers)).toBe(true);
  expect(isOptString(r.request.body)).toBe(true);
  for (const k of ['session', 'client', 'error', 'derivedFrom'] as const) expect(isOptString(r[k])).toBe(true);
  expect(r.endedAt === undefined || isFiniteNumber(r.endedAt)).toBe(true);
  if (r.response) {
    expect(isFiniteNumber(r.response.status)).toBe(true);
    expect(isFiniteNumber(r.response.receivedAt)).toBe(true);
    expect(isHeaders(r.response.headers)).toBe(true);
    expect(isOptString(r.response.body) && isOptString(r.response.tail) && isOptString(r.response.statusText)).toBe(true);
    for (const e of r.response.events ?? []) {
      expect(isFiniteNumber(e.t) && typeof e.data === 'string').toBe(true);
    }
  }
}

function expectSafe(text: string, allowPartial: boolean) {
  const out = importCapture(text, { allowPartial });
  if (out.ok) {
    const seqs = new Set<number>();
    for (const r of out.exchanges) expectWellFormed(r, seqs);
    expect(Array.isArray(out.notes)).toBe(true);
  } else {
    expect(typeof out.error.message).toBe('string');
    expect(typeof out.error.where).toBe('string');
  }
  expect(Array.isArray(out.skipped)).toBe(true);
}

// Entries that look like HAR entries in part, so the reader gets past its first checks.
const harish = fc.record({
  startedDateTime: fc.oneof(fc.constant('2026-08-01T00:00:00Z'), fc.string(), fc.jsonValue()),
  time: fc.oneof(fc.double(), fc.jsonValue()),
  request: fc.oneof(fc.record({ method: fc.oneof(fc.string(), fc.jsonValue()), url: fc.oneof(fc.webUrl(), fc.jsonValue()), headers: fc.jsonValue(), postData: fc.jsonValue() }, { requiredKeys: [] }), fc.jsonValue()),
  response: fc.oneof(fc.record({ status: fc.oneof(fc.integer(), fc.jsonValue()), headers: fc.jsonValue(), content: fc.oneof(fc.record({ text: fc.string(), mimeType: fc.constantFrom('text/event-stream', 'application/json'), encoding: fc.constantFrom('base64', 'x') }, { requiredKeys: [] }), fc.jsonValue()) }, { requiredKeys: [] }), fc.jsonValue()),
  timings: fc.oneof(fc.dictionary(fc.constantFrom('blocked', 'dns', 'connect', 'ssl', 'send', 'wait', 'receive'), fc.oneof(fc.double(), fc.integer())), fc.jsonValue()),
  connection: fc.jsonValue(),
  _mrtr: fc.oneof(fc.jsonValue(), fc.record({ id: fc.jsonValue(), state: fc.constantFrom(...STATES, 'x'), events: fc.jsonValue(), startedAt: fc.jsonValue(), endedAt: fc.jsonValue() }, { requiredKeys: [] })),
}, { requiredKeys: [] });

describe('importCapture on arbitrary input', () => {
  it('never throws on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.boolean(), (s, p) => expectSafe(s, p)), { numRuns: 500 });
  });

  it('never throws on arbitrary JSON values, whole or as JSON lines', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.boolean(), (v, p) => {
      expectSafe(JSON.stringify(v) ?? 'null', p);
      expectSafe(Array.isArray(v) ? v.map((x) => JSON.stringify(x)).join('\n') : JSON.stringify(v) ?? '', p);
    }), { numRuns: 500 });
  });

  it('never throws on {log:{entries:[…]}} with arbitrary entries, and keeps seq equal to entry position', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.jsonValue(), harish), { maxLength: 8 }), fc.boolean(), (entries, p) => {
      const text = JSON.stringify({ log: { entries } });
      expectSafe(text, p);
      const out = importCapture(text, { allowPartial: true });
      if (out.ok) {
        for (const r of out.exchanges) expect(r.id).toBe(`x-${r.seq}`);
        expect(out.exchanges.length + out.skipped.length).toBe(entries.length);
      }
      // Any prefix of the file (a cut-off download) is also safe.
      expectSafe(text.slice(0, Math.floor(text.length / 2)), p);
    }), { numRuns: 500 });
  });

  it('never throws on JSONL lines holding arbitrary objects', () => {
    fc.assert(fc.property(fc.array(fc.dictionary(fc.constantFrom('v', 'id', 'source', 'state', 'startedAt', 'request', 'response', '__proto__'), fc.jsonValue())), fc.boolean(), (lines, p) => {
      expectSafe(lines.map((l) => JSON.stringify(l)).join('\n'), p);
    }), { numRuns: 300 });
  });
});

const header = fc.record({ name: fc.string(), value: fc.string() });
const event: fc.Arbitrary<SseEventRecord> = fc.record({
  t: fc.double({ noNaN: true, noDefaultInfinity: true }),
  data: fc.string(),
  event: fc.string({ minLength: 1 }).filter((s) => !/[\r\n]/.test(s)),
  id: fc.string().filter((s) => !/[\r\n\0]/.test(s)),
  retry: fc.nat(),
}, { requiredKeys: ['t', 'data'] });
const record: fc.Arbitrary<ExchangeRecord> = fc.record({
  v: fc.constant(1), id: fc.uuid(), seq: fc.constant(0), session: fc.string(), source: fc.constantFrom('sw', 'relay', 'import', 'console'),
  client: fc.string(), startedAt: fc.integer({ min: 0, max: 4e12 }),
  request: fc.record({ method: fc.string(), url: fc.string(), headers: fc.array(header), body: fc.string() }, { requiredKeys: ['method', 'url', 'headers'] }),
  response: fc.record({ status: fc.integer({ min: 1, max: 599 }), statusText: fc.string(), headers: fc.array(header), receivedAt: fc.double({ noNaN: true, noDefaultInfinity: true }), body: fc.string(), events: fc.array(event), tail: fc.string() }, { requiredKeys: ['status', 'headers', 'receivedAt'] }),
  endedAt: fc.double({ noNaN: true, noDefaultInfinity: true }), state: fc.constantFrom('pending', 'streaming', 'complete', 'aborted', 'failed'),
  error: fc.string(), derivedFrom: fc.string(),
}, { requiredKeys: ['v', 'id', 'seq', 'source', 'startedAt', 'request', 'state'] }) as fc.Arbitrary<ExchangeRecord>;

// fast-check may build null-prototype objects and -0; JSON text carries neither.
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe('round trips', () => {
  it('exportJsonl then importCapture returns the same records', () => {
    fc.assert(fc.property(fc.uniqueArray(record, { selector: (r) => r.id, maxLength: 5 }), (records) => {
      records.forEach((r, i) => { r.seq = i; });
      const out = importCapture(exportJsonl(records));
      if (records.length === 0) return;
      expect(out.ok && out.exchanges).toStrictEqual(plain(records));
    }), { numRuns: 200 });
  });

  it('exportHar (sanitize: false) then importCapture returns the same records', () => {
    // An event stream holds events or a body, never both; and events write the tail.
    const oneOfBodyOrEvents = record.map((r) => {
      if (r.response?.events) delete r.response.body;
      else if (r.response) delete r.response.tail;
      return r;
    });
    fc.assert(fc.property(fc.uniqueArray(oneOfBodyOrEvents, { selector: (r) => r.id, minLength: 1, maxLength: 5 }), (records) => {
      records.forEach((r, i) => { r.seq = i; });
      const out = importCapture(exportHar(records, { sanitize: false }));
      expect(out.ok && out.exchanges).toStrictEqual(plain(records));
    }), { numRuns: 200 });
  });

  it('serializeEventStream output parses back to its events', () => {
    fc.assert(fc.property(fc.array(event), (events) => {
      const norm = events.map((e) => ({ ...e, t: 1, data: e.data.replace(/\r\n|\r/g, '\n') }));
      expect(parseEventStreamText(serializeEventStream(norm), 1).events).toStrictEqual(norm);
    }), { numRuns: 300 });
  });
});
