// JSON-RPC ids of every JSON type, and exchanges that arrive twice or out of order.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { capture } from '../../support/capture-builder.js';
import { analyzeUsable, goodRecords } from './hostile.js';

/** One call whose request and answer carry `idText` verbatim as their id. */
function callWithRawId(idText: string, answerIdText = idText): ExchangeRecord[] {
  const b = capture();
  b.call('tools/call', { name: 'x' });
  const [r] = b.build();
  r.request.body = r.request.body!.replace(/"id":1\b/, `"id":${idText}`);
  r.response!.body = r.response!.body!.replace(/"id":1\b/, `"id":${answerIdText}`);
  return [r];
}

describe('JSON-RPC ids of every JSON type', () => {
  it.each([
    ['a string', '"req-1"', 'req-1'],
    ['an empty string', '""', ''],
    ['zero', '0', 0],
    ['a negative number', '-7', -7],
    ['a float', '1.5', 1.5],
    ['a huge integer', '123456789012345678901234567890', 123456789012345678901234567890],
    ['a number near the float limit', '1.7e308', 1.7e308],
    ['null', 'null', null],
  ])('pairs a request and its answer by %s id', async (_name, text, id) => {
    const a = await analyzeUsable(callWithRawId(text));
    expect(a.decoded[0].sent[0]).toMatchObject({ kind: 'request', id });
    expect(a.conversations).toHaveLength(1);
    expect(a.conversations[0].rounds[0]).toMatchObject({ requestId: id, answer: 0, outcome: 'complete' });
  });

  it('does not pair ids that differ only in type ("1" is not 1)', async () => {
    const a = await analyzeUsable(callWithRawId('1', '"1"'));
    expect(a.conversations[0].rounds[0]).toMatchObject({ requestId: 1, answer: -1 });
  });

  it.each([
    ['an object', '{"n":1}', 'object'],
    ['an array', '[1]', 'object'],
    ['true', 'true', 'boolean'],
    ['false', 'false', 'boolean'],
    ['a number too big for a double', '1e400', 'number'],
  ])('marks a message whose id is %s invalid, saying why, and threads nothing from it', async (_name, text, type) => {
    const a = await analyzeUsable(callWithRawId(text));
    for (const m of [a.decoded[0].sent[0], a.decoded[0].received[0]]) {
      expect(m).toMatchObject({ kind: 'invalid', problem: `id must be a string, number or null, got ${type}` });
      expect(m.id).toBeUndefined();
    }
    expect(a.conversations).toEqual([]);
  });
});

describe('duplicate and out-of-order exchanges', () => {
  it('analyses an exchange given twice with the same seq once: unique conversation ids, no request claimed twice, no doubled findings', async () => {
    const records = goodRecords();
    const once = await analyze(goodRecords());
    const twice = await analyzeUsable([...records, ...structuredClone(records)]);
    const ids = twice.conversations.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(twice.records.map((r) => r.seq)).toEqual([0, 1, 2]);
    expect(twice.decoded.map((d) => d.seq)).toEqual([0, 1, 2]);
    expect(twice.conversations).toEqual(once.conversations);
    expect(twice.findings).toEqual(once.findings);
  });

  it('takes the last copy of a repeated seq, as a live record is re-sent when it completes', async () => {
    const done = goodRecords();
    const pending = structuredClone(done[2]);
    delete pending.response;
    delete pending.endedAt;
    pending.state = 'pending';
    const a = await analyzeUsable([pending, ...done]);
    expect(a.records[a.records.length - 1]).toBe(done[2]);
    expect(a.conversations.filter((c) => c.exchanges.includes(2))).toHaveLength(1);
    expect(a.conversations.find((c) => c.exchanges.includes(2))!.status).toBe('complete');
    const b = await analyzeUsable([...done, pending]);
    expect(b.conversations.find((c) => c.exchanges.includes(2))!.status).toBe('in-progress');
  });

  it('threads by send time when startedAt goes backwards against seq', async () => {
    const b = capture();
    const first = b.call('tools/call', { name: 'book' }).inputRequired({ k: { method: 'roots/list', params: {} } }, 'tok-1');
    b.retry(first, { k: { roots: [] } }).complete();
    // The retry is stored first (seq 0) but was sent after the first round was answered.
    const [r0, r1] = b.build();
    const swapped = [{ ...r1, seq: 0, id: 'late' }, { ...r0, seq: 1, id: 'early' }];
    const a = await analyzeUsable(swapped);
    expect(a.conversations).toHaveLength(1);
    expect(a.conversations[0].exchanges).toEqual([0, 1]);
    expect(a.conversations[0].rounds.map((r) => [r.exchange, r.link, r.parent])).toEqual([[1, null, null], [0, 'state', 0]]);
  });

  it('gives the same result whatever order the records array is in', async () => {
    const records = goodRecords();
    const a = await analyze(records);
    const b = await analyze([...structuredClone(records)].reverse());
    expect(b.conversations).toEqual(a.conversations);
    expect(b.findings).toEqual(a.findings);
  });
});
