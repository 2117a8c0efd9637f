// The record shape check (worker/capture/record-read.ts): what it accepts, copied field by
// field, and every refusal with its path and text, in the order the fields are checked. The
// relay's backlog, its pushes, stdio ingest and JSONL files are all read through it, so a
// faster check must refuse exactly what this one did, saying the same thing in the same place.
import { describe, expect, it } from 'vitest';
import { readRecord } from '../../../worker/capture/record-read.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { sampleRecords } from './sample-records.js';

// A record with every optional field set, as JSON would hand it over.
function full(): Record<string, unknown> {
  return JSON.parse(JSON.stringify({
    ...sampleRecords()[1],
    session: 's1', client: 'c1', error: 'e', refused: 'quota',
    origin: { kind: 'replay', run: 'run-1' },
    stdio: { name: 'srv', exit: { code: null, signal: 'SIGTERM', stderrTail: 'bye' } },
    response: { ...sampleRecords()[1]!.response, statusText: 'OK', body: '', events: [{ t: 1, data: 'd', event: 'message', id: '7', retry: 3000 }] },
  })) as Record<string, unknown>;
}

// `full()` changed at one path (dot-separated, numbers index lists); `undefined` deletes.
function withAt(path: string, value: unknown): Record<string, unknown> {
  const rec = full();
  const keys = path.split('.');
  let at = rec as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return rec;
}

const SOURCES = 'source must be one of sw, relay, import, console';
const STATES = 'state must be one of pending, streaming, complete, aborted, failed';
const KINDS = 'origin.kind must be one of discovery, call, step, edit, resend, fork, tamper, replay, check';

// [path changed, value there, where it is reported, message]
const REFUSALS: [string, unknown, string, string][] = [
  ['v', undefined, 'v', 'v (record version) must be a number'],
  ['v', '1', 'v', 'v (record version) must be a number'],
  ['v', Infinity, 'v', 'v (record version) must be a number'],
  ['id', undefined, 'id', 'id must be a non-empty string'],
  ['id', '', 'id', 'id must be a non-empty string'],
  ['id', 7, 'id', 'id must be a non-empty string'],
  ['source', 'tap', 'source', SOURCES],
  ['source', undefined, 'source', SOURCES],
  ['state', 'done', 'state', STATES],
  ['startedAt', '1', 'startedAt', 'startedAt must be a number (epoch ms)'],
  ['startedAt', NaN, 'startedAt', 'startedAt must be a number (epoch ms)'],
  ['request', undefined, 'request', 'request must be an object'],
  ['request', [], 'request', 'request must be an object'],
  ['request', null, 'request', 'request must be an object'],
  ['request.method', 1, 'request.method', 'method must be a string'],
  ['request.url', undefined, 'request.url', 'url must be a string'],
  ['request.headers', 'a: b', 'request.headers', 'headers must be a list of {name, value}'],
  ['request.headers', [{ name: 'a', value: 'b' }, null], 'request.headers[1]', 'a header must be an object {name, value}'],
  ['request.headers', [['a', 'b']], 'request.headers[0]', 'a header must be an object {name, value}'],
  ['request.headers', [{ name: 1, value: 'b' }], 'request.headers[0].name', 'a header name must be a string'],
  ['request.headers', [{ name: 'a' }], 'request.headers[0].value', 'a header value must be a string'],
  ['request.body', 12, 'request.body', 'body must be a string'],
  ['response', null, 'response', 'response must be an object'],
  ['response', 'ok', 'response', 'response must be an object'],
  ['response.status', '200', 'response.status', 'status must be a number'],
  ['response.receivedAt', undefined, 'response.receivedAt', 'receivedAt must be a number (epoch ms)'],
  ['response.headers', {}, 'response.headers', 'headers must be a list of {name, value}'],
  ['response.headers', [{ name: 'a', value: 2 }], 'response.headers[0].value', 'a header value must be a string'],
  ['response.statusText', 200, 'response.statusText', 'statusText must be a string'],
  ['response.body', null, 'response.body', 'body must be a string'],
  ['response.tail', 1, 'response.tail', 'tail must be a string'],
  ['response.events', 'x', 'response.events', 'events must be a list'],
  ['response.events', null, 'response.events', 'events must be a list'],
  ['response.events.0', 'x', 'response.events[0]', 'an event must be an object'],
  ['response.events.0.t', '1', 'response.events[0].t', 't must be a finite number (epoch ms)'],
  ['response.events.0.data', 1, 'response.events[0].data', 'data must be a string'],
  ['response.events.0.event', 1, 'response.events[0].event', 'event must be a string'],
  ['response.events.0.id', 7, 'response.events[0].id', 'id must be a string'],
  ['response.events.0.retry', '3000', 'response.events[0].retry', 'retry must be a finite number'],
  ['session', 1, 'session', 'session must be a string'],
  ['client', false, 'client', 'client must be a string'],
  ['endedAt', '1', 'endedAt', 'endedAt must be a finite number'],
  ['error', {}, 'error', 'error must be a string'],
  ['derivedFrom', 1, 'derivedFrom', 'derivedFrom must be a string'],
  ['refused', [], 'refused', 'refused must be a string'],
  ['origin', 'call', 'origin', 'origin must be an object'],
  ['origin.kind', 'send', 'origin.kind', KINDS],
  ['origin.run', '', 'origin.run', 'origin.run must be a non-empty string'],
  ['stdio', null, 'stdio', 'stdio must be an object'],
  ['stdio.name', undefined, 'stdio.name', 'stdio.name must be a string'],
  ['stdio.exit', 0, 'stdio.exit', 'stdio.exit must be an object'],
  ['stdio.exit.code', 1.5, 'stdio.exit.code', 'code must be a whole number or null'],
  ['stdio.exit.signal', 9, 'stdio.exit.signal', 'signal must be a string or null'],
  ['stdio.exit.stderrTail', undefined, 'stdio.exit.stderrTail', 'stderrTail must be a string'],
];

describe('reading a record', () => {
  it('copies every known field of a full record, and seq from the caller', () => {
    const want = full() as unknown as ExchangeRecord;
    expect(readRecord(full(), '', 41)).toStrictEqual({ ...want, seq: 41 });
    for (const r of sampleRecords()) expect(readRecord(JSON.parse(JSON.stringify(r)), '', r.seq)).toStrictEqual(r);
  });

  it('leaves out fields it does not know, at every level, and never an own __proto__ key', () => {
    const rec = JSON.parse('{"__proto__":{"polluted":true},"extra":1}') as Record<string, unknown>;
    Object.assign(rec, full());
    (rec.request as Record<string, unknown>).extra = 2;
    (rec.response as { headers: Record<string, unknown>[] }).headers[0]!.extra = 3;
    ((rec.response as { events: Record<string, unknown>[] }).events[0]!).extra = 4;
    (rec.stdio as { exit: Record<string, unknown> }).exit.extra = 5;
    (rec.origin as Record<string, unknown>).extra = 6;
    const got = readRecord(rec, '', 0) as ExchangeRecord;
    expect(got).toStrictEqual({ ...full(), seq: 0 });
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never reads a field a record only inherits', () => {
    const rec = Object.create({ response: 'inherited', session: 3 }) as Record<string, unknown>;
    Object.assign(rec, sampleRecords()[2]);
    expect(readRecord(rec, '', 2)).toStrictEqual(sampleRecords()[2]);
  });

  it.each(REFUSALS)('refuses %s = %j at %s: %s', (path, value, where, message) => {
    expect(readRecord(withAt(path, value), '', 0)).toStrictEqual({ where, message });
    // Under a caller's path: a push, a stdio batch's element.
    expect(readRecord(withAt(path, value), 'push', 0)).toStrictEqual({ where: `push.${where}`, message });
    expect(readRecord(withAt(path, value), '[3]', 0)).toStrictEqual({ where: `[3].${where}`, message });
  });

  it('refuses what is not an object at the caller\'s path itself', () => {
    for (const v of [null, [], 'x', 1, true]) {
      expect(readRecord(v, '', 0)).toStrictEqual({ where: '', message: 'a record must be a JSON object' });
      expect(readRecord(v, 'push', 0)).toStrictEqual({ where: 'push', message: 'a record must be a JSON object' });
    }
  });

  it('names the first bad field in the order the fields are checked', () => {
    const two = (a: [string, unknown], b: [string, unknown]) => {
      const rec = withAt(a[0], a[1]);
      const keys = b[0].split('.');
      let at = rec as Record<string, unknown>;
      for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
      at[keys[keys.length - 1]!] = b[1];
      return (readRecord(rec, '', 0) as { where: string }).where;
    };
    expect(two(['session', 1], ['request.url', 1])).toBe('request.url');
    expect(two(['request.body', 1], ['request.headers', 'x'])).toBe('request.headers');
    expect(two(['response.events', 'x'], ['response.tail', 1])).toBe('response.tail');
    expect(two(['response.body', 1], ['response.statusText', 1])).toBe('response.statusText');
    expect(two(['response.headers', 'x'], ['response.receivedAt', 'x'])).toBe('response.receivedAt');
    expect(two(['origin', 1], ['refused', 1])).toBe('refused');
    expect(two(['stdio', 1], ['origin', 1])).toBe('origin');
    expect(two(['endedAt', 'x'], ['client', 1])).toBe('client');
    expect(two(['response.events.0.retry', 'x'], ['response.events.0.event', 1])).toBe('response.events[0].event');
    expect(two(['response.events.0.id', 1], ['response.events.0.data', 1])).toBe('response.events[0].data');
    expect(two(['state', 'x'], ['v', 'x'])).toBe('v');
  });
});
