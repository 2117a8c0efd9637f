// One lint pass's view of the analysis (worker/engine/lint-context.ts): what rules read
// through it, and what it keeps for the length of the pass.
import { describe, expect, it } from 'vitest';
import { ConversationIndex } from '../../../worker/engine/conversation-index.js';
import { EntryTable } from '../../../worker/engine/entry-table.js';
import { lintContext, type LintSources } from '../../../worker/engine/lint-context.js';
import { collectToolLists } from '../../../worker/engine/tool-lists.js';
import { DEFAULT_LINT_OPTIONS } from '../../../worker/lint/rule.js';
import type { TokenReading } from '../../../worker/protocol.js';
import { Threader } from '../../../worker/thread/threader.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

/** A tools/list, then a two-round call whose second round echoes the token the first issued. */
function sources(overrides: Partial<LintSources> = {}): LintSources {
  const b = capture();
  b.call('tools/list', {}, 10).complete({ tools: [{ name: 'sum', inputSchema: { type: 'object' } }] });
  const first = b.call('tools/call', { name: 'sum', arguments: {} }, 20).inputRequired({ k: ask.form('go?', {}) }, 'tok-1');
  b.retry(first, { k: reply.accept({}) }).at(30, 5).complete();
  const entries = new EntryTable();
  entries.put(b.build());
  entries.apply();
  const threader = new Threader();
  for (const e of entries.all()) threader.add(e.record, e.decoded);
  const conversations = threader.conversations(true);
  const index = new ConversationIndex();
  index.reset(conversations);
  return {
    options: DEFAULT_LINT_OPTIONS, conversations, entries, index,
    toolLists: collectToolLists(conversations, (seq) => entries.at(seq)?.decoded),
    reading: () => undefined,
    issuedBy: (t) => threader.origins(t),
    ...overrides,
  };
}

describe('a lint pass\'s context', () => {
  it('reads the records, messages, exchanges and tokens of the analysis it was built on', () => {
    const src = sources();
    const ctx = lintContext(src);
    const call = src.conversations.find((c) => c.method === 'tools/call')!;
    expect(call.rounds).toHaveLength(2);
    const [r1, r2] = call.rounds;
    expect(ctx.record(r2.exchange).seq).toBe(r2.exchange);
    expect(ctx.request(r1).method).toBe('tools/call');
    expect(ctx.answer(r1)?.kind).toBe('result');
    expect(ctx.answer({ ...r1, answer: -1 })).toBeUndefined();
    expect(ctx.conversationsOf(r2.exchange)).toEqual([call]);
    expect(ctx.issuedBy('tok-1')).toEqual([{ conversation: call, round: 0 }]);
    expect(ctx.presentations('tok-1').map((p) => p.round)).toEqual([r2]);
    expect(ctx.toolDefinition('sum', r1.exchange)?.name).toBe('sum');
    expect(ctx.toolDefinition('sum', 0)).toBeUndefined();
  });

  it('asks for each token\'s reading once in a pass, however often rules ask', () => {
    const asked: string[] = [];
    const reading = { format: 'opaque' } as unknown as TokenReading;
    const ctx = lintContext(sources({ reading: (t) => (asked.push(t), t === 'tok-1' ? reading : undefined) }));
    expect(ctx.token('tok-1')).toBe(reading);
    expect(ctx.token('tok-1')).toBe(reading);
    expect(ctx.token('nope')).toBeUndefined();
    expect(ctx.token('nope')).toBeUndefined();
    expect(asked).toEqual(['tok-1', 'nope']);
    // A new pass asks again: readings may have changed between passes.
    lintContext(sources({ reading: (t) => (asked.push(t), undefined) })).token('tok-1');
    expect(asked).toEqual(['tok-1', 'nope', 'tok-1']);
  });

  it('builds a rule\'s memo once per key for the pass', () => {
    const ctx = lintContext(sources());
    const key = {};
    let built = 0;
    const a = ctx.memo(key, () => ({ n: ++built }));
    const b = ctx.memo(key, () => ({ n: ++built }));
    expect(a).toBe(b);
    expect(built).toBe(1);
    expect(ctx.memo({}, () => 'other')).toBe('other');
  });

  it('says which exchange is missing when a rule asks for one the analysis does not hold', () => {
    const ctx = lintContext(sources());
    expect(() => ctx.record(99)).toThrow('no exchange with seq 99');
  });
});
