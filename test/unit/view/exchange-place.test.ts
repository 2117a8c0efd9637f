import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { placeOfExchange } from '../../../worker/view/exchange-place.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

describe('placeOfExchange', () => {
  it('names the conversation and the round an exchange carried', async () => {
    const cap = capture();
    cap.call('tools/call', { name: 'other', arguments: {} }).result({ ok: true });
    const token = Buffer.from(JSON.stringify({ step: 1 })).toString('base64url');
    const first = cap.call('tools/call', { name: 'wizard', arguments: {} }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, token);
    cap.retry(first, { k: reply.accept({ a: 'b' }) });
    const a = await analyze(cap.build());
    const wizard = a.conversations.find((c) => c.name === 'wizard')!;
    expect(wizard.rounds).toHaveLength(2);
    const second = a.records.find((r) => r.seq === wizard.rounds[1].exchange)!;
    expect(placeOfExchange(a.conversations, a.records, second.id)).toEqual({ conversation: wizard.id, round: 1 });
    const other = a.conversations.find((c) => c.name === 'other')!;
    const otherRecord = a.records.find((r) => r.seq === other.rounds[0].exchange)!;
    expect(placeOfExchange(a.conversations, a.records, otherRecord.id)).toEqual({ conversation: other.id, round: 0 });
  });

  it('answers null for an exchange no conversation holds', async () => {
    const cap = capture();
    cap.call('tools/call', { name: 'x', arguments: {} }).result({});
    const a = await analyze(cap.build());
    expect(placeOfExchange(a.conversations, a.records, 'no-such-id')).toBeNull();
  });
});
