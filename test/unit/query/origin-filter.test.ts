// The filter terms of Console traffic: `origin:<kind>` (any round the Console sent that way)
// and `has:origin` (anything the Console sent), on threaded traffic with origins.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { describeFilter, matchesFilter, parseFilter, type FilterTerm } from '../../../worker/query/index.js';
import type { Conversation } from '../../../worker/protocol.js';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { subject } from './subjects.js';

function terms(text: string): FilterTerm[] {
  const got = parseFilter(text);
  if (!got.ok) throw new Error(got.error.message);
  return got.terms;
}

/** A captured call with an edit branch, a tamper run of two calls, and a plain captured call. */
async function conversations(): Promise<Conversation[]> {
  const b = capture();
  const first = b.call('tools/call', { name: 'wizard', arguments: {} }).inputRequired({ q: ask.form('Name?', { n: { type: 'string' } }) }, 'T0');
  b.retry(first, { q: reply.accept({ n: 'a' }) }).complete();
  b.retry(first, { q: reply.accept({ n: 'b' }) }).complete();
  b.call('tools/call', { name: 'tampered', arguments: {} }).error(-32602, 'bad token', { status: 400 });
  b.call('tools/call', { name: 'tampered', arguments: { x: 1 } }).error(-32602, 'bad token', { status: 400 });
  b.call('tools/call', { name: 'plain', arguments: {} });
  const records = b.build();
  records.forEach((r, i) => (r.id = `x${i}`));
  Object.assign(records[2], { source: 'console', derivedFrom: 'x1', origin: { kind: 'edit' } });
  Object.assign(records[3], { source: 'console', origin: { kind: 'tamper', run: 'r-1' } });
  Object.assign(records[4], { source: 'console', origin: { kind: 'tamper', run: 'r-1' } });
  return (await analyze(records)).conversations;
}

const names = (cs: Conversation[], filter: string) => cs.filter((c) => matchesFilter(terms(filter), subject(c, [], ''))).map((c) => c.name);

describe('origin filter terms', () => {
  it('origin:<kind> keeps conversations with a round the Console sent that way, the edit branch of a captured call included', async () => {
    const cs = await conversations();
    expect(names(cs, 'origin:tamper')).toEqual(['tampered', 'tampered']);
    expect(names(cs, 'origin:edit')).toEqual(['wizard']);
    expect(names(cs, '-origin:tamper')).toEqual(['wizard', 'plain']);
    expect(names(cs, 'origin:replay')).toEqual([]);
  });

  it('has:origin keeps anything the Console sent, -has:origin the captured traffic alone', async () => {
    const cs = await conversations();
    expect(names(cs, 'has:origin')).toEqual(['wizard', 'tampered', 'tampered']);
    expect(names(cs, '-has:origin')).toEqual(['plain']);
  });

  it('reads re-send as resend, refuses an unknown origin with the accepted ones, and describes the term', () => {
    expect(terms('origin:re-send')).toEqual([{ kind: 'origin', value: 'resend', negate: false, at: 0 }]);
    const bad = parseFilter('origin:proxy');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toEqual({ message: expect.stringContaining('discovery, call, step, edit, resend, fork, tamper, replay, check'), at: 7 });
    expect(describeFilter(terms('origin:tamper -has:origin'))).toBe('Console origin tamper, no Console traffic');
  });
});
