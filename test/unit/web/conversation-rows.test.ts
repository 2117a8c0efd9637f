// web/lib/conversation-rows.svelte.ts: the filtered conversation list, on a stub worker.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConversationRows, FILTER_DELAY_MS } from '../../../web/lib/conversation-rows.svelte.ts';
import { delta, row, settle, stubWorker, whole } from './view-stub.ts';

function setup(session: string | null = 's1') {
  const w = stubWorker();
  const reports: (string | null)[] = [];
  const rows = new ConversationRows({ api: () => w.api, session: () => session, report: (e) => void reports.push(e) });
  return { w, rows, reports };
}

afterEach(() => vi.useRealTimers());

describe('the conversation list', () => {
  it('reads nothing before a session is on screen', async () => {
    const { w, rows } = setup(null);
    await rows.load();
    expect(w.calls).toEqual([]);
    expect(rows.list).toBeNull();
  });

  it('asks for the whole list first, then only what changed since its copy', async () => {
    const { w, rows } = setup();
    w.lists = [{ ok: true, value: whole(1, row('a', 1)) }, { ok: true, value: delta(2, 1, [row('b', 2)]) }];
    await rows.load();
    await rows.load();
    expect(w.calls).toEqual(['list s1 "" null', 'list s1 "" 1']);
    expect(rows.list?.items.map((r) => r.id)).toEqual(['a', 'b']);
    expect(rows.lastUpdate).toBe('delta');
  });

  it('a delta with no copy to apply it to is followed by a read of the whole list', async () => {
    const { w, rows } = setup();
    w.lists = [{ ok: true, value: delta(5, 4, []) }, { ok: true, value: whole(6, row('a', 1)) }];
    // A copy of another filter is no copy: the delta cannot apply to it.
    rows.setFilter('status:error');
    await rows.applyFilter();
    await settle();
    expect(w.calls).toEqual(['list s1 "status:error" null', 'list s1 "status:error" null']);
    expect(rows.list?.items.map((r) => r.id)).toEqual(['a']);
  });

  it('typing waits for a pause before asking, and only the last text is asked', async () => {
    vi.useFakeTimers();
    const { w, rows } = setup();
    w.lists = [{ ok: true, value: whole(1) }];
    rows.setFilter('s');
    rows.setFilter('st');
    rows.setFilter('status:error');
    expect(rows.filter).toBe('status:error');
    await vi.advanceTimersByTimeAsync(FILTER_DELAY_MS - 1);
    expect(w.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.calls).toEqual(['list s1 "status:error" null']);
  });

  it('Enter asks at once and the pending pause asks nothing more', async () => {
    vi.useFakeTimers();
    const { w, rows } = setup();
    w.lists = [{ ok: true, value: whole(1) }];
    rows.setFilter('has:state');
    await rows.applyFilter();
    await vi.advanceTimersByTimeAsync(FILTER_DELAY_MS * 2);
    expect(w.calls).toEqual(['list s1 "has:state" null']);
  });

  it('an answer to a filter typed over is dropped: the rows are those of the latest request', async () => {
    const { w, rows } = setup();
    w.lists = [{ ok: true, value: whole(1, row('old', 1)) }, { ok: true, value: whole(2, row('new', 2)) }];
    const open = w.hold('conversationsSince');
    const first = rows.load();
    const second = rows.load();
    await second;
    open();
    await first;
    expect(rows.list?.items.map((r) => r.id)).toEqual(['new']);
  });

  it('a session started over drops the rows and any answer on its way', async () => {
    const { w, rows } = setup();
    w.lists = [{ ok: true, value: whole(1, row('a', 1)) }];
    const open = w.hold('conversationsSince');
    const pending = rows.load();
    rows.reset();
    open();
    await pending;
    expect(rows.list).toBeNull();
  });

  it('a failed read is reported and keeps the rows; a read that succeeds clears the report', async () => {
    const { w, rows, reports } = setup();
    w.lists = [{ ok: true, value: whole(1, row('a', 1)) }];
    await rows.load();
    w.fail.conversationsSince = 'the filter failed';
    await rows.load();
    expect(rows.list?.items.map((r) => r.id)).toEqual(['a']);
    delete w.fail.conversationsSince;
    await rows.load();
    expect(reports).toEqual([null, 'the filter failed', null]);
  });

  it('finds a conversation\'s place in the rows', async () => {
    const { w, rows } = setup();
    w.lists = [{ ok: true, value: whole(1, row('a', 1), row('b', 2)) }];
    await rows.load();
    expect([rows.indexOf('b'), rows.indexOf('zz'), rows.indexOf(null)]).toEqual([1, -1, -1]);
  });
});
