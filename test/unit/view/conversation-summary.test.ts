// A conversation as a list row (worker/view/conversation-summary.ts): what the list shows
// and filters on, read from the analysis without the page seeing the conversation.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { Finding } from '../../../worker/protocol.js';
import { conversationSummary, findingCounts } from '../../../worker/view/conversation-summary.js';
import { indexAnalysis } from '../../../worker/view/conversation-view.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

describe('a conversation\'s row', () => {
  it('sums up a two-round call: rounds, state, first seq, start, duration to the last answer and the last HTTP status', async () => {
    const b = capture();
    const first = b.call('tools/call', { name: 'book', arguments: {} }).at(1000, 10).inputRequired({ seat: ask.form('Seat?', { s: { type: 'string' } }) }, 'T1');
    b.retry(first, { seat: reply.accept({ s: '1A' }) }).at(1100, 40).complete();
    const a = await analyze(b.build());
    const row = conversationSummary(a.conversations[0], indexAnalysis(a));
    expect(row).toMatchObject({ id: 'c0', method: 'tools/call', name: 'book', rounds: 2, firstSeq: 0, startedAt: 1000, hasState: true, ambiguous: false, httpStatus: 200 });
    expect(row.durationMs).toBe(a.conversations[0].rounds[1].answeredAt! - 1000);
    expect(row.durationMs).toBeGreaterThan(100);
    expect(row.ambiguity).toBeUndefined();
    expect(row.origin).toBeUndefined();
    expect(row.branches).toBeUndefined();
  });

  it('has no duration while nothing is answered', async () => {
    const b = capture();
    b.call('tools/call', { name: 'slow', arguments: {} }).at(50, 1).noResponse();
    const a = await analyze(b.build());
    expect(conversationSummary(a.conversations[0], indexAnalysis(a)).durationMs).toBeNull();
  });

  it('counts the findings about its tamper tests\' exchanges apart, as expected results', async () => {
    const b = capture();
    b.call('tools/call', { name: 'tampered', arguments: {} }).result({ content: [] });
    const records = b.build();
    Object.assign(records[0], { source: 'console', origin: { kind: 'tamper', run: 'r-1' } });
    const a = await analyze(records);
    const row = conversationSummary(a.conversations[0], indexAnalysis(a));
    expect(row.findings.error + row.findings.warning).toBeGreaterThan(0);
    expect(row.expected).toEqual(row.findings);
    expect([row.origin, row.run]).toEqual(['tamper', 'r-1']);
  });

  it('counts findings by severity', () => {
    const f = (severity: Finding['severity']) => ({ severity }) as Finding;
    expect(findingCounts([f('error'), f('info'), f('error')])).toEqual({ error: 2, warning: 0, info: 1 });
    expect(findingCounts(undefined)).toEqual({ error: 0, warning: 0, info: 0 });
  });
});
