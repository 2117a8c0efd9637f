// The indexes the engine keeps over its threaded conversations (worker/engine/conversation-index.ts):
// extended in place as conversations grow, they must read as if built whole.
import { describe, expect, it } from 'vitest';
import { ConversationIndex } from '../../../worker/engine/conversation-index.js';
import { conv, grow, round } from './engine-helpers.js';

describe('the conversation index', () => {
  it('gives each conversation its place and each exchange the conversations holding it', () => {
    const a = conv('c0', [round(0, 10)]);
    const b = conv('c1', [round(1, 20)]);
    const ix = new ConversationIndex();
    ix.reset([a, b]);
    expect([ix.placeOf(a), ix.placeOf(b)]).toEqual([0, 1]);
    expect(ix.placeOf(conv('c0', []))).toBeUndefined();
    grow(a, round(2, 30));
    const c = conv('c2', [round(2, 30)]);
    ix.extend([a, c]);
    expect(ix.placeOf(c)).toBe(2);
    expect(ix.conversationsOf(2)).toEqual([a, c]);
    expect(ix.conversationsOf(9)).toBeUndefined();
    expect(ix.roundsOf(2)).toEqual([{ conversation: a, round: 1 }, { conversation: c, round: 0 }]);
  });

  it('lists the rounds that sent a token in conversation order, then round order, whatever order they were indexed in', () => {
    const a = conv('c0', [round(0, 10, { issued: 't' })]);
    const b = conv('c1', [round(1, 20, { sent: 't' })]);
    const ix = new ConversationIndex();
    ix.reset([a, b]);
    // A later round of the earlier conversation echoes the token after c1 did.
    grow(a, round(2, 30, { sent: 't' }));
    grow(a, round(3, 40, { sent: 't' }));
    ix.extend([a]);
    expect(ix.presentations('t')?.map((p) => [p.conversation.id, p.round.exchange])).toEqual([['c0', 2], ['c0', 3], ['c1', 1]]);
    // Extending by the same conversation again indexes no round twice.
    ix.extend([a, b]);
    expect(ix.presentations('t')).toHaveLength(3);
    expect(ix.presentations('other')).toBeUndefined();
  });

  it('keeps the latest first send up to each place, as a running maximum', () => {
    const ix = new ConversationIndex();
    ix.reset([conv('c0', [round(0, 50)]), conv('c1', [round(1, 20)])]);
    ix.extend([conv('c2', [round(2, 70)]), conv('c3', [])]);
    expect([0, 1, 2, 3].map((i) => ix.firstSentMax(i))).toEqual([50, 50, 70, 70]);
  });

  it('forgets an earlier threading on reset', () => {
    const old = conv('c0', [round(0, 10, { sent: 't' })]);
    const ix = new ConversationIndex();
    ix.reset([old]);
    const now = conv('c0', [round(0, 10, { sent: 't' })]);
    ix.reset([now]);
    expect(ix.placeOf(old)).toBeUndefined();
    expect(ix.conversationsOf(0)).toEqual([now]);
    expect(ix.presentations('t')?.map((p) => p.conversation)).toEqual([now]);
  });

  it('places a token where the batch analysis reads it: the first issuing round, else the first round sending it', () => {
    const a = conv('c0', [round(0, 10, { sent: 't' })]);
    const b = conv('c1', [round(1, 20), round(2, 30, { issued: 't' })]);
    const c = conv('c2', [round(3, 40, { issued: 't' })]);
    const ix = new ConversationIndex();
    ix.reset([a, b, c]);
    // Origins as the threader lists them (issue order), not necessarily by place.
    expect(ix.tokenExchange('t', [{ conversation: c, round: 0 }, { conversation: b, round: 1 }])).toBe(2);
    expect(ix.tokenExchange('t', [])).toBe(0);
    expect(ix.tokenExchange('never', [])).toBeUndefined();
  });
});
