// List rows of Console traffic: the origin label, the run that groups them, the branch count
// the thread draws, and tamper findings counted apart from the server's errors.
import { describe, expect, it } from 'vitest';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { conversationView } from '../../../worker/view/conversation-view.js';
import { SessionModel } from '../../../worker/view/session-model.js';
import { listOf, listUpdate } from '../../../worker/view/session-list.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

function records(): StoredExchange[] {
  const b = capture();
  const first = b.call('tools/call', { name: 'wizard', arguments: {} }).inputRequired({ q: ask.form('Name?', { n: { type: 'string' } }) }, 'T0');
  b.retry(first, { q: reply.accept({ n: 'a' }) }).complete();
  b.retry(first, { q: reply.accept({ n: 'b' }) }).complete();
  // Two tamper requests whose answers lack resultType: findings (result/type-missing) that,
  // for a tamper test, are its result.
  b.call('tools/call', { name: 'tampered', arguments: {} }).result({ content: [] });
  b.call('tools/call', { name: 'tampered', arguments: { x: 1 } }).result({ content: [] });
  const out = b.build().map((r, i) => ({ ...r, id: `x${i}`, session: 's1' }));
  Object.assign(out[2], { source: 'console', derivedFrom: 'x1', origin: { kind: 'fork' } });
  Object.assign(out[3], { source: 'console', origin: { kind: 'tamper', run: 'r-1' } });
  Object.assign(out[4], { source: 'console', origin: { kind: 'tamper', run: 'r-1' } });
  return out;
}

describe('Console rows', () => {
  it('labels Console rows with their origin and run, counts branches, and keeps tamper findings out of the error count', async () => {
    const built = await new SessionModel(records()).built(() => [], 0);
    const list = listOf(built, '');
    expect(list.items.map((r) => [r.name, r.origin, r.run, r.branches])).toEqual([
      ['wizard', undefined, undefined, 2],
      ['tampered', 'tamper', 'r-1', undefined],
      ['tampered', 'tamper', 'r-1', undefined],
    ]);
    const tamperFindings = list.items.filter((r) => r.origin === 'tamper').reduce((n, r) => n + r.findings.error + r.findings.warning, 0);
    expect(list.items.filter((r) => r.origin === 'tamper').every((r) => JSON.stringify(r.expected) === JSON.stringify(r.findings))).toBe(true);
    expect(tamperFindings).toBeGreaterThan(0);
    expect(list.stats.expected).toBe(tamperFindings);
    const serverErrors = list.items.filter((r) => r.origin !== 'tamper').reduce((n, r) => n + r.findings.error, 0);
    expect(list.stats.errors).toBe(serverErrors + built.loose.filter((f) => f.severity === 'error').length);
  });

  it('counts tamper findings apart in a list update as in the whole list, as the rows arrive one by one', async () => {
    const model = new SessionModel();
    let epoch: number | null = null;
    let deltas = 0;
    for (const r of records()) {
      model.put([r]);
      const b = await model.built(() => [], 0);
      const update = listUpdate(b, '', epoch);
      if (update.kind === 'delta') {
        deltas += 1;
        expect(update.stats).toEqual(listOf(b, '').stats);
      }
      epoch = update.epoch;
    }
    expect(deltas).toBe(records().length - 1);
    const b = await model.built(() => [], 0);
    expect(listOf(b, '').stats.expected).toBeGreaterThan(0);
  });

  it('gives the thread the branch tree: the fork leaves round 1, and the round says it is a fork', async () => {
    const built = await new SessionModel(records()).built(() => [], 0);
    const c = built.analysis.conversations.find((x) => x.name === 'wizard')!;
    const view = await conversationView(c, built.index, { view: async () => null } as never);
    expect(view.branches.map((b) => [b.path, b.from, b.origin])).toEqual([[[0, 1], null, undefined], [[0, 2], 0, 'fork']]);
    expect(view.rounds.map((r) => [r.link, r.origin])).toEqual([[null, undefined], ['state', undefined], ['derived', 'fork']]);
  });
});
