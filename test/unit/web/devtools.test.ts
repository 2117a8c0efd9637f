// web/lib/devtools.svelte.ts: the selection (conversation, thread, round, focus) and the
// keyboard's moves over it, on a stub worker.
import { describe, expect, it } from 'vitest';
import { Devtools } from '../../../web/lib/devtools.svelte.ts';
import { row, settle, stubWorker, thread, whole } from './view-stub.ts';

async function setup(ids: string[] = ['a', 'b', 'c']) {
  const w = stubWorker();
  w.lists = [{ ok: true, value: whole(1, ...ids.map((id, i) => row(id, i))) }];
  for (const id of ids) w.threads.set(id, thread(id, 3));
  const view = new Devtools(() => w.api, () => 's1');
  await view.reload();
  w.calls.length = 0;
  return { w, view };
}

describe('selecting a conversation', () => {
  it('opens its thread on the first round and shows that round\'s exchange', async () => {
    const { view } = await setup();
    view.select('b');
    await settle();
    expect([view.selected, view.thread?.id, view.round, view.detail.exchange?.id]).toEqual(['b', 'b', 0, 'b-r0']);
  });

  it('opens on the round that failed, when one did', async () => {
    const { w, view } = await setup();
    w.threads.set('b', thread('b', 3, [1]));
    view.select('b');
    await settle();
    expect([view.round, view.detail.exchange?.id]).toEqual([1, 'b-r1']);
  });

  it('a thread answered for a conversation no longer selected is dropped', async () => {
    const { w, view } = await setup();
    const open = w.hold('conversation');
    view.select('a');
    view.select('b');
    await settle();
    open();
    await settle();
    expect([view.selected, view.thread?.id, view.detail.exchange?.id]).toEqual(['b', 'b', 'b-r0']);
  });

  it('rounds moved to while the thread is still being read are the new thread\'s, kept and shown when it comes', async () => {
    const { w, view } = await setup();
    w.threads.set('b', thread('b', 4, [3]));
    view.select('a');
    await settle();
    const open = w.hold('conversation');
    view.select('b');
    view.setFocus('thread');
    // The thread on screen is still a's (3 rounds): j, j, j, k as the user pressed them.
    view.move(1);
    view.move(1);
    view.move(1);
    view.move(-1);
    expect(view.thread?.id).toBe('a');
    open();
    await settle();
    // Not a's rounds, and not b's failed round 3 either: where the keys went.
    expect([view.thread?.id, view.round, view.detail.exchange?.id]).toEqual(['b', 2, 'b-r2']);
  });

  it('a move past the end of a thread still being read stops at its last round', async () => {
    const { w, view } = await setup();
    w.threads.set('b', thread('b', 2));
    view.select('a');
    await settle();
    const open = w.hold('conversation');
    view.select('b');
    view.selectRound(5);
    open();
    await settle();
    expect([view.round, view.detail.exchange?.id]).toEqual([1, 'b-r1']);
  });

  it('selecting nothing clears the thread and the detail', async () => {
    const { view } = await setup();
    view.select('a');
    await settle();
    view.select(null);
    expect([view.thread, view.detail.exchange]).toEqual([null, null]);
  });

  it('a link to an exchange selects its conversation on that round, with the thread focused', async () => {
    const { view } = await setup();
    view.reveal('c', 2);
    await settle();
    expect([view.selected, view.round, view.focus, view.detail.exchange?.id]).toEqual(['c', 2, 'thread', 'c-r2']);
  });

  it('a round past the thread\'s end (a thread that shrank) is brought back to its last round', async () => {
    const { w, view } = await setup();
    w.threads.set('c', thread('c', 2));
    view.reveal('c', 5);
    await settle();
    expect([view.round, view.detail.exchange?.id]).toEqual([1, 'c-r1']);
  });

  it('a reload keeps the selection and re-reads its thread and round', async () => {
    const { w, view } = await setup();
    view.select('a');
    await settle();
    view.selectRound(2);
    await settle();
    w.calls.length = 0;
    await view.reload();
    expect(w.calls).toEqual(['list s1 "" 1', 'thread s1 a', 'exchange s1 a-r2']);
    expect(view.round).toBe(2);
  });

  it('starting over (another session) clears the list, the selection and the detail, and focuses the list', async () => {
    const { view } = await setup();
    view.reveal('a', 1);
    await settle();
    view.reset();
    expect([view.rows.list, view.selected, view.thread, view.detail.exchange, view.round, view.focus]).toEqual([null, null, null, null, 0, 'list']);
  });

  it('a failed thread read is said in the status bar; a list read that succeeds clears it', async () => {
    const { w, view } = await setup();
    w.fail.conversation = 'conversation gone';
    view.select('a');
    await settle();
    expect(view.error).toBe('conversation gone');
    delete w.fail.conversation;
    await view.reload();
    expect(view.error).toBeNull();
  });
});

describe('keys', () => {
  it('j from no selection selects the first row, k the last; both stop at the ends', async () => {
    const { view } = await setup();
    view.move(1);
    expect(view.selected).toBe('a');
    view.move(-1);
    expect(view.selected).toBe('a');
    view.select(null);
    view.move(-1);
    expect(view.selected).toBe('c');
    view.move(1);
    expect(view.selected).toBe('c');
  });

  it('with the thread focused, j and k move between rounds and stop at its ends', async () => {
    const { view } = await setup();
    view.select('a');
    await settle();
    view.setFocus('thread');
    view.move(1);
    view.move(1);
    view.move(1);
    await settle();
    expect([view.round, view.detail.exchange?.id]).toEqual([2, 'a-r2']);
  });

  it('Enter goes list → thread → detail, selecting the first row when none is', async () => {
    const { view } = await setup();
    view.open();
    expect([view.selected, view.focus]).toEqual(['a', 'thread']);
    await settle();
    view.open();
    expect(view.focus).toBe('detail');
  });

  it('Esc goes detail → thread → list → no selection', async () => {
    const { view } = await setup();
    view.select('a');
    await settle();
    view.setFocus('detail');
    view.close();
    expect(view.focus).toBe('thread');
    view.close();
    expect(view.focus).toBe('list');
    view.close();
    expect(view.selected).toBeNull();
  });

  it('an exchange opened from a round (a legacy answer) shows in the detail pane with it focused', async () => {
    const { view } = await setup();
    view.select('a');
    await settle();
    view.openExchange(1, 'legacy-answer');
    await settle();
    expect([view.round, view.focus, view.detail.exchange?.id]).toEqual([1, 'detail', 'legacy-answer']);
  });
});

describe('the filter and the selection', () => {
  it('a filter that leaves the selected conversation out keeps it selected, with its thread and detail open', async () => {
    const { w, view } = await setup();
    view.select('b');
    await settle();
    w.lists = [{ ok: true, value: whole(2, row('a', 0)) }];
    view.rows.setFilter('name:a');
    await view.rows.applyFilter();
    expect([view.selectedIndex, view.selected, view.thread?.id, view.detail.exchange?.id]).toEqual([-1, 'b', 'b', 'b-r0']);
  });
});
