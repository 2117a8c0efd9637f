// The queue of subjects lint has still to check (worker/engine/unchecked-queue.ts): what a
// budgeted step leaves behind, and the order a later step takes it up in.
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../worker/protocol.js';
import { UncheckedQueue, type CheckPass } from '../../../worker/engine/unchecked-queue.js';

function conv(id: string): Conversation {
  return { id, method: 'tools/call', name: 'a', era: '2026-07-28', client: null, exchanges: [], status: 'complete', rounds: [] };
}

/** A pass that writes down what it is asked, in order. */
function recorder() {
  const log: string[] = [];
  const pass: CheckPass = {
    conversations: async (chunk) => {
      log.push(`ready ${chunk.map((c) => c.id).join(',')}`);
      return (c) => void log.push(`conv ${c.id}`);
    },
    exchanges: () => {
      log.push('ready exchanges');
      return (s) => void log.push(`seq ${s}`);
    },
  };
  return { log, pass, checked: () => log.filter((l) => !l.startsWith('ready')) };
}

/** A budget of `n` looks: `more()` says yes n times, then no. */
function budget(n: number) {
  let left = n;
  return { more: () => left-- > 0, asked: () => n - left };
}

describe('the queue of unchecked subjects', () => {
  it('checks conversations newest first, then exchanges newest first', async () => {
    const q = new UncheckedQueue();
    for (const id of ['c0', 'c1', 'c2']) q.addConversation(conv(id));
    for (const s of [0, 1, 2]) q.addExchange(s);
    const r = recorder();
    await q.drain(2, () => true, r.pass);
    expect(r.checked()).toEqual(['conv c2', 'conv c1', 'conv c0', 'seq 2', 'seq 1', 'seq 0']);
    expect(q.size).toBe(0);
  });

  it('gets each chunk of conversations ready once before checking any of it', async () => {
    const q = new UncheckedQueue();
    for (const id of ['c0', 'c1', 'c2']) q.addConversation(conv(id));
    const r = recorder();
    await q.drain(2, () => true, r.pass);
    expect(r.log).toEqual(['ready c2,c1', 'conv c2', 'conv c1', 'ready c0', 'conv c0']);
  });

  it('asks the budget before each subject and leaves what it stopped queued for the next drain', async () => {
    const q = new UncheckedQueue();
    for (const id of ['c0', 'c1', 'c2', 'c3', 'c4']) q.addConversation(conv(id));
    const first = recorder();
    const b = budget(3);
    await q.drain(2, b.more, first.pass);
    // Asked before the first chunk (yes), before c3 (yes), before the second chunk (yes),
    // before c1 (no): it stops inside a chunk whose tokens it read.
    expect(first.log).toEqual(['ready c4,c3', 'conv c4', 'conv c3', 'ready c2,c1', 'conv c2']);
    expect(b.asked()).toBe(4);
    expect(q.size).toBe(2);
    const second = recorder();
    await q.drain(2, () => true, second.pass);
    expect(second.log).toEqual(['ready c1,c0', 'conv c1', 'conv c0']);
    expect(q.size).toBe(0);
  });

  it('stops inside a chunk of exchanges too, leaving the rest queued', async () => {
    const q = new UncheckedQueue();
    for (const s of [0, 1, 2, 3]) q.addExchange(s);
    const first = recorder();
    await q.drain(4, budget(2).more, first.pass);
    expect(first.checked()).toEqual(['seq 3', 'seq 2']);
    expect(q.size).toBe(2);
    const second = recorder();
    await q.drain(4, () => true, second.pass);
    expect(second.checked()).toEqual(['seq 1', 'seq 0']);
  });

  it('checks no exchange while a conversation still waits', async () => {
    const q = new UncheckedQueue();
    for (const id of ['c0', 'c1']) q.addConversation(conv(id));
    q.addExchange(7);
    const r = recorder();
    await q.drain(1, budget(1).more, r.pass);
    expect(r.checked()).toEqual(['conv c1']);
    expect(q.size).toBe(2);
    const rest = recorder();
    await q.drain(1, () => true, rest.pass);
    expect(rest.checked()).toEqual(['conv c0', 'seq 7']);
  });

  it('checks nothing and asks nothing when the queue is empty', async () => {
    const q = new UncheckedQueue();
    const r = recorder();
    const b = budget(5);
    await q.drain(3, b.more, r.pass);
    expect(r.log).toEqual([]);
    expect(b.asked()).toBe(0);
  });

  it('keeps a conversation queued again in its place, holding the object queued last', async () => {
    const q = new UncheckedQueue();
    const older = conv('c0');
    q.addConversation(older);
    q.addConversation(conv('c1'));
    const newer = conv('c0');
    q.addConversation(newer);
    q.addExchange(3);
    q.addExchange(3);
    expect(q.size).toBe(3);
    const seen: Conversation[] = [];
    await q.drain(5, () => true, { conversations: async () => (c) => void seen.push(c), exchanges: () => () => undefined });
    expect(seen.map((c) => c.id)).toEqual(['c1', 'c0']);
    expect(seen[1]).toBe(newer);
  });

  it('withdraws a conversation that no longer exists, and renews the others to their new objects after a re-thread', async () => {
    const q = new UncheckedQueue();
    for (const id of ['c0', 'c1', 'c2']) q.addConversation(conv(id));
    q.withdraw('c1');
    const fresh = conv('c0');
    // c2 is gone from the new threading; c0 is a new object; c9 was never queued.
    q.renew(new Map([['c0', fresh], ['c9', conv('c9')]]));
    expect(q.size).toBe(1);
    const seen: Conversation[] = [];
    await q.drain(5, () => true, { conversations: async () => (c) => void seen.push(c), exchanges: () => () => undefined });
    expect(seen).toEqual([fresh]);
    expect(seen[0]).toBe(fresh);
  });

  it('checks only the subjects named when limited to them, newest first, and their exchanges only once no conversation waits', async () => {
    const q = new UncheckedQueue();
    for (const id of ['c0', 'c1', 'c2', 'c3', 'c4']) q.addConversation(conv(id));
    for (const s of [0, 1, 2]) q.addExchange(s);
    const r = recorder();
    await q.drain(1, () => true, r.pass, { conversations: new Set(['c1', 'c3', 'gone']), exchanges: new Set([2]) });
    expect(r.checked()).toEqual(['conv c3', 'conv c1']);
    expect(q.size).toBe(6);
    const rest = recorder();
    await q.drain(2, () => true, rest.pass, { conversations: new Set(['c0', 'c2', 'c4']), exchanges: new Set([2, 0]) });
    expect(rest.checked()).toEqual(['conv c4', 'conv c2', 'conv c0', 'seq 2', 'seq 0']);
    const last = recorder();
    await q.drain(2, () => true, last.pass);
    expect(last.checked()).toEqual(['seq 1']);
  });

  it('keeps newest-first order over many withdrawals and re-queues, a budgeted drain at a time', async () => {
    const q = new UncheckedQueue();
    const order: string[] = []; // the reference: ids in the order first queued
    const queue = (id: string) => {
      q.addConversation(conv(id));
      if (!order.includes(id)) order.push(id);
    };
    for (let i = 0; i < 300; i++) queue(`c${i}`);
    // Withdraw every third, queue some again (they keep their place) and some anew (at the end).
    for (let i = 0; i < 300; i += 3) {
      q.withdraw(`c${i}`);
      order.splice(order.indexOf(`c${i}`), 1);
    }
    for (let i = 1; i < 300; i += 7) queue(`c${i}`);
    for (let i = 0; i < 300; i += 9) queue(`c${i}`);
    const seen: string[] = [];
    const pass: CheckPass = { conversations: async () => (c) => void seen.push(c.id), exchanges: () => () => undefined };
    for (let guard = 0; q.size > 0; guard++) {
      expect(guard).toBeLessThan(100);
      await q.drain(7, budget(15).more, pass); // 15 subjects a drain: 7, 7 and the first of a third chunk
      // Half-way, more come: they are the newest.
      if (guard === 5) for (const id of ['n0', 'n1']) queue(id);
    }
    const expected = [...order].reverse();
    // What drains 0–5 checked (6 × 15), then the two newcomers, then the rest.
    expect(seen.slice(0, 90)).toEqual(expected.filter((id) => !id.startsWith('n')).slice(0, 90));
    expect(seen.slice(90, 92)).toEqual(['n1', 'n0']);
    expect(seen.slice(92)).toEqual(expected.filter((id) => !id.startsWith('n')).slice(90));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('empties on clear', () => {
    const q = new UncheckedQueue();
    q.addConversation(conv('c0'));
    q.addExchange(0);
    q.clear();
    expect(q.size).toBe(0);
  });
});
