// Threading rounds into conversations on hand-made captures: the cases design.md names.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

const confirm = (id: string) => ({ [id]: ask.form('Proceed?', { ok: { type: 'boolean' } }, ['ok']) });
const args = (n: number) => ({ name: 'confirm_action', arguments: { n } });

async function thread(records: ReturnType<ReturnType<typeof capture>['build']>) {
  const a = await analyze(records);
  const byExchanges = (seqs: number[]) => a.conversations.find((c) => c.exchanges.join() === seqs.join());
  return { a, byExchanges };
}

describe('threading', () => {
  it('threads two interleaved calls of the same tool with the same arguments by their echoed tokens', async () => {
    const cap = capture();
    const a1 = cap.call('tools/call', args(1)).inputRequired(confirm('ok'), 'token-A-1');
    const b1 = cap.call('tools/call', args(1)).inputRequired(confirm('ok'), 'token-B-1');
    cap.retry(b1, { ok: reply.accept({ ok: true }) });
    cap.retry(a1, { ok: reply.accept({ ok: false }) });
    const { a, byExchanges } = await thread(cap.build());
    expect(byExchanges([0, 3])?.rounds.map((r) => r.link)).toEqual([null, 'state']);
    expect(byExchanges([1, 2])?.rounds.map((r) => r.link)).toEqual([null, 'state']);
    expect(a.conversations).toHaveLength(2);
  });

  it('threads interleaved calls whose tokens rotate every round', async () => {
    const cap = capture();
    let a = cap.call('tools/call', args(7)).inputRequired(confirm('q0'), 'A0');
    let b = cap.call('tools/call', args(7)).inputRequired(confirm('q0'), 'B0');
    for (let round = 1; round <= 3; round++) {
      const last = round === 3;
      const nb = cap.retry(b, { [`q${round - 1}`]: reply.accept() });
      if (!last) nb.inputRequired(confirm(`q${round}`), `B${round}`);
      const na = cap.retry(a, { [`q${round - 1}`]: reply.accept() });
      if (!last) na.inputRequired(confirm(`q${round}`), `A${round}`);
      a = na;
      b = nb;
    }
    const { a: an, byExchanges } = await thread(cap.build());
    expect(an.conversations).toHaveLength(2);
    expect(byExchanges([0, 3, 5, 7])?.status).toBe('complete');
    expect(byExchanges([1, 2, 4, 6])?.rounds.every((r, i) => (i === 0 ? r.link === null : r.link === 'state'))).toBe(true);
  });

  it('threads token-less rounds by method, arguments and the answered keys', async () => {
    const cap = capture();
    const a1 = cap.call('tools/call', args(1)).inputRequired(confirm('first'));
    const b1 = cap.call('tools/call', args(2)).inputRequired(confirm('first'));
    cap.retry(b1, { first: reply.accept() });
    cap.retry(a1, { first: reply.accept() });
    const { byExchanges } = await thread(cap.build());
    expect(byExchanges([0, 3])?.rounds[1].link).toBe('match');
    expect(byExchanges([1, 2])?.rounds[1].link).toBe('match');
  });

  it('prefers the chain whose asked keys the retry answers exactly', async () => {
    const cap = capture();
    const a1 = cap.call('tools/call', args(1)).inputRequired(confirm('colour'));
    const b1 = cap.call('tools/call', args(1)).inputRequired(confirm('size'));
    cap.retry(a1, { colour: reply.accept() });
    cap.retry(b1, { size: reply.accept() });
    const { byExchanges } = await thread(cap.build());
    expect(byExchanges([0, 2])?.rounds[1].link).toBe('match');
    expect(byExchanges([1, 3])?.rounds[1].link).toBe('match');
  });

  it('reports a truly undecidable pair as ambiguous and names both candidates', async () => {
    const cap = capture();
    const a1 = cap.call('tools/call', args(1)).inputRequired(confirm('ok'));
    const b1 = cap.call('tools/call', args(1)).inputRequired(confirm('ok'));
    cap.retry(a1, { ok: reply.accept() });
    cap.retry(b1, { ok: reply.accept() });
    const { a } = await thread(cap.build());
    const ambiguous = a.conversations.flatMap((c) => c.rounds).filter((r) => r.link === 'ambiguous');
    expect(ambiguous).toHaveLength(2);
    for (const r of ambiguous) {
      expect(r.candidates).toEqual(['c0', 'c1']);
      expect(r.linkReason).toMatch(/no token tells them apart/);
    }
    // Nothing was guessed: the originals kept one round each.
    expect(a.conversations.filter((c) => c.rounds.length > 1)).toEqual([]);
  });

  it('never joins a retry to a chain that already ended', async () => {
    const cap = capture();
    const first = cap.call('tools/call', args(1)).inputRequired(confirm('ok'), 'tok-1');
    cap.retry(first, { ok: reply.accept() });
    cap.retry(first, { ok: reply.accept() }); // the same retry sent again after completion
    const { a } = await thread(cap.build());
    expect(a.conversations.map((c) => c.exchanges)).toEqual([[0, 1], [2]]);
    expect(a.conversations[1].replayOf).toBe('c0');
    expect(a.conversations[1].rounds[0].link).toBeNull();
  });

  it('keeps a correct retry after a rejected tampered one in the same conversation, as a branch of the issuing round', async () => {
    const cap = capture();
    const first = cap.call('tools/call', args(1)).inputRequired(confirm('ok'), 'tok-1');
    cap.retry(first, { ok: reply.accept() }).state('tok-1-tampered').error(-32602, 'requestState failed verification');
    cap.retry(first, { ok: reply.accept() }); // recovers with the token it was given
    const { a } = await thread(cap.build());
    expect(a.conversations).toHaveLength(1);
    const c = a.conversations[0];
    expect(c.exchanges).toEqual([0, 1, 2]);
    expect(c.status).toBe('complete');
    expect(c.replayOf).toBeUndefined();
    expect(c.rounds.map((r) => [r.link, r.parent, r.outcome])).toEqual([
      [null, null, 'input_required'], ['match', 0, 'error'], ['state', 0, 'complete'],
    ]);
    expect(c.rounds[2].linkReason).toMatch(/new branch after the error that answered round 2/);
  });

  it('continues a chain whose rotating token expired with a retry of a token it issued earlier', async () => {
    const cap = capture();
    const r1 = cap.call('tools/call', args(3)).inputRequired(confirm('q0'), 'T1');
    const r2 = cap.retry(r1, { q0: reply.accept() }).inputRequired(confirm('q1'), 'T2');
    cap.wait(120_000);
    cap.retry(r2, { q1: reply.accept() }).error(-32602, 'requestState expired');
    const r4 = cap.retry(r1, { q0: reply.accept() }).inputRequired(confirm('q1'), 'T3');
    cap.retry(r4, { q1: reply.accept() });
    const { a } = await thread(cap.build());
    expect(a.conversations).toHaveLength(1);
    const c = a.conversations[0];
    expect(c.status).toBe('complete');
    expect(c.replayOf).toBeUndefined();
    expect(c.rounds.map((r) => [r.link, r.parent, r.outcome])).toEqual([
      [null, null, 'input_required'], ['state', 0, 'input_required'], ['state', 1, 'error'],
      ['state', 0, 'input_required'], ['state', 3, 'complete'],
    ]);
  });

  it('keeps an error on the first round and a fresh call of the same tool apart', async () => {
    const cap = capture();
    cap.call('tools/call', args(1)).error(-32602, 'unknown argument');
    const fresh = cap.call('tools/call', args(1)).inputRequired(confirm('ok'), 'tok-f');
    cap.retry(fresh, { ok: reply.accept() });
    const { a } = await thread(cap.build());
    expect(a.conversations.map((c) => [c.exchanges, c.status, c.replayOf])).toEqual([
      [[0], 'error', undefined], [[1, 2], 'complete', undefined],
    ]);
  });

  it('starts a replayOf conversation for a token re-presented after the chain completed, even after a rejected branch', async () => {
    const cap = capture();
    const first = cap.call('tools/call', args(1)).inputRequired(confirm('ok'), 'tok-1');
    cap.retry(first, { ok: reply.accept() }).error(-32603, 'backend busy');
    cap.retry(first, { ok: reply.accept() });
    cap.retry(first, { ok: reply.accept() }); // presented again after complete
    const { a } = await thread(cap.build());
    expect(a.conversations.map((c) => c.exchanges)).toEqual([[0, 1, 2], [3]]);
    expect(a.conversations[0].status).toBe('complete');
    expect(a.conversations[1].replayOf).toBe('c0');
    expect(a.conversations[1].rounds[0].link).toBeNull();
  });

  it('keeps two clients apart when their ids both restart at 0', async () => {
    const cap = capture();
    const who = (name: string) => ({ 'io.modelcontextprotocol/clientInfo': { name, version: '1' } });
    const a1 = cap.call('tools/call', args(1), 0).meta(who('alpha')).inputRequired(confirm('ok'));
    const b1 = cap.call('tools/call', args(1), 0).meta(who('beta')).inputRequired(confirm('ok'));
    cap.retry(b1, { ok: reply.accept() }).withId(1).meta(who('beta'));
    cap.retry(a1, { ok: reply.accept() }).withId(1).meta(who('alpha'));
    const { byExchanges } = await thread(cap.build());
    expect(byExchanges([0, 3])?.rounds[1].link).toBe('match');
    expect(byExchanges([1, 2])?.rounds[1].link).toBe('match');
  });

  it('threads a token re-used by two parallel retries into one chain with two branches', async () => {
    const cap = capture();
    const first = cap.call('tools/call', args(1)).inputRequired(confirm('ok'), 'shared');
    const t = cap.now + 5000;
    cap.retry(first, { ok: reply.accept() }).at(t, 500);
    cap.retry(first, { ok: reply.accept() }).at(t + 10, 500);
    const { a } = await thread(cap.build());
    expect(a.conversations).toHaveLength(1);
    expect(a.conversations[0].rounds.map((r) => [r.link, r.parent])).toEqual([[null, null], ['state', 0], ['state', 0]]);
  });

  it('does not link a retry sent before the answer it would continue arrived', async () => {
    const cap = capture();
    const t0 = cap.now;
    const first = cap.call('tools/call', args(1)).inputRequired(confirm('ok')).at(t0, 5000);
    cap.retry(first, { ok: reply.accept() }).at(t0 + 2000, 10);
    const { a } = await thread(cap.build());
    expect(a.conversations).toHaveLength(2);
  });

  it('starts a conversation of its own for a token presented on another tool', async () => {
    const cap = capture();
    const first = cap.call('tools/call', args(1)).inputRequired(confirm('ok'), 'tok-x');
    cap.call('tools/call', { name: 'delete_everything', arguments: {} }).state('tok-x').responses({ ok: reply.accept() });
    cap.retry(first, { ok: reply.accept() });
    const { byExchanges } = await thread(cap.build());
    expect(byExchanges([0, 2])?.rounds[1].link).toBe('state');
    expect(byExchanges([1])?.name).toBe('delete_everything');
  });

  it('is deterministic: the same input gives the same conversations', async () => {
    const cap = capture();
    const a1 = cap.call('tools/call', args(1)).inputRequired(confirm('ok'));
    const b1 = cap.call('tools/call', args(1)).inputRequired(confirm('ok'));
    cap.retry(a1, { ok: reply.accept() });
    cap.retry(b1, { ok: reply.accept() });
    const records = cap.build();
    const x = await analyze(records);
    const y = await analyze([...records].reverse());
    expect(JSON.stringify(y.conversations)).toBe(JSON.stringify(x.conversations));
  });
});
