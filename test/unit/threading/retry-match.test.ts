// What decides whether a retry without a token continues an open chain
// (worker/thread/retry-match.ts): the same call, a compatible client, the keys it answers,
// and the chain's state at the retry's send time.
import { describe, expect, it } from 'vitest';
import type { Conversation, Round } from '../../../worker/protocol.js';
import { CallShape, compatible, endedBefore, failedBefore, keyScore } from '../../../worker/thread/retry-match.js';

const client = (name: string, version = '1.0.0') => ({ _meta: { 'io.modelcontextprotocol/clientInfo': { name, version } } });

function chainEnding(outcome: Round['outcome'], answeredAt: number | null): Conversation {
  const r = { outcome, answeredAt } as Round;
  return { id: 'c0', method: 'tools/call', name: 'a', era: '2026-07-28', client: null, exchanges: [0], status: 'in-progress', rounds: [{ ...r, outcome: 'input_required' }, r] };
}

describe('retry matching', () => {
  it('compares arguments in canonical form, whatever their key order', () => {
    const a = new CallShape('tools/call', { name: 'a', arguments: { x: 1, y: 2 } });
    const b = new CallShape('tools/call', { name: 'a', arguments: { y: 2, x: 1 } });
    const c = new CallShape('tools/call', { name: 'a', arguments: { x: 2, y: 2 } });
    expect(a.args()).toBe(b.args());
    expect(a.args()).not.toBe(c.args());
  });

  it('finds clients compatible when they agree or one did not say, and not when they differ', () => {
    const none = new CallShape('tools/call', { name: 'a' });
    const one = new CallShape('tools/call', { name: 'a', ...client('x') });
    expect(compatible(none, one)).toBe(true);
    expect(compatible(one, new CallShape('tools/call', { name: 'a', ...client('x') }))).toBe(true);
    expect(compatible(one, new CallShape('tools/call', { name: 'a', ...client('x', '2.0.0') }))).toBe(false);
  });

  it('scores the keys a retry answers: exactly 2, some 1, none 0, and 2 when neither side has any', () => {
    expect(keyScore(['k1', 'k2'], { k1: 'a', k2: 'b' })).toBe(2);
    expect(keyScore(null, null)).toBe(2);
    expect(keyScore(['k1'], { k1: 'a', k2: 'b' })).toBe(1);
    expect(keyScore(['k1', 'extra'], { k1: 'a' })).toBe(1);
    expect(keyScore(['other'], { k1: 'a' })).toBe(0);
  });

  it('judges a chain ended or failed at the retry\'s send time, not later', () => {
    expect(endedBefore(chainEnding('complete', 100), 100)).toBe(true);
    expect(endedBefore(chainEnding('complete', 100), 99)).toBe(false);
    expect(endedBefore(chainEnding('error', 100), 200)).toBe(false);
    expect(failedBefore(chainEnding('error', 100), 150)).toBe(true);
    expect(failedBefore(chainEnding('error', null), 150)).toBe(false);
    expect(failedBefore(chainEnding('complete', 100), 150)).toBe(false);
  });
});
