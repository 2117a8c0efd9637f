// Threading the tasks extension: a task's creation, polls, updates, cancel and end are one
// conversation with the MRTR rounds before it, joined by taskId per server.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { Conversation } from '../../../worker/protocol.js';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { cancel, poll, startTask, TASK_CAPABILITIES, update } from '../../support/task-traffic.js';

const book = { name: 'book_trip', arguments: { city: 'Oslo' } };
const seat = { seat: ask.form('Window or aisle?', { seat: { type: 'string' } }) };
const meal = { meal: ask.sampling('Suggest a meal') };
const steps = (c: Conversation | undefined) => c?.rounds.map((r) => (r.task ? `${r.task.step}:${r.task.status ?? '-'}×${1 + (r.task.polls?.length ?? 0)}` : r.outcome));

describe('threading tasks', () => {
  it('threads MRTR rounds, the task they create, its polls, update and result as one conversation', async () => {
    const b = capture();
    const first = b.call('tools/call', book).capabilities(TASK_CAPABILITIES).inputRequired({ ok: ask.form('Go?', { ok: { type: 'boolean' } }) }, 'tok-1');
    b.retry(first, { ok: reply.accept({ ok: true }) }).result({ resultType: 'task', taskId: 't-1', status: 'working', pollIntervalMs: 500 });
    poll(b, 't-1', 'working');
    poll(b, 't-1', 'working');
    poll(b, 't-1', 'input_required', { inputRequests: seat });
    update(b, 't-1', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 't-1', 'completed', { result: { content: [{ type: 'text', text: 'booked' }] } });
    const a = await analyze(b.build());
    expect(a.conversations).toHaveLength(1);
    const c = a.conversations[0];
    expect(c.exchanges).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(steps(c)).toEqual(['input_required', 'create:working×1', 'get:working×2', 'get:input_required×1', 'update:-×1', 'get:completed×1']);
    expect(c.task).toEqual({ taskId: 't-1', created: 1, status: 'completed' });
    expect(c.status).toBe('complete');
    expect(c.rounds[3].task?.requests).toEqual({ seat: 'elicitation/create' });
    expect(c.rounds[4].inputResponses).toEqual(['seat']);
  });

  it('keeps two interleaved tasks of the same tool and arguments apart by their taskIds', async () => {
    const b = capture();
    startTask(b, book, 'A');
    startTask(b, book, 'B');
    poll(b, 'B', 'working');
    poll(b, 'A', 'working');
    poll(b, 'B', 'completed', { result: { content: [] } });
    poll(b, 'A', 'working');
    poll(b, 'A', 'failed', { error: { code: -32603, message: 'no seats' } });
    const a = await analyze(b.build());
    expect(a.conversations.map((c) => [c.task?.taskId, c.exchanges, c.status])).toEqual([
      ['A', [0, 3, 5, 6], 'error'],
      ['B', [1, 2, 4], 'complete'],
    ]);
    expect(steps(a.conversations[0])).toEqual(['create:working×1', 'get:working×2', 'get:failed×1']);
  });

  it('ends a cancelled task with its cancel and the poll that reports it', async () => {
    const b = capture();
    startTask(b, book, 't-9');
    poll(b, 't-9', 'working');
    cancel(b, 't-9');
    poll(b, 't-9', 'cancelled');
    const [c, ...rest] = (await analyze(b.build())).conversations;
    expect(rest).toHaveLength(0);
    expect(steps(c)).toEqual(['create:working×1', 'get:working×1', 'cancel:-×1', 'get:cancelled×1']);
    expect(c.task?.status).toBe('cancelled');
    expect(c.status).toBe('abandoned');
  });

  it('folds polls that show the same outstanding requests and starts a round when a poll shows a new one', async () => {
    const b = capture();
    startTask(b, book, 't-2');
    poll(b, 't-2', 'input_required', { inputRequests: seat });
    poll(b, 't-2', 'input_required', { inputRequests: seat });
    poll(b, 't-2', 'input_required', { inputRequests: { ...seat, ...meal } });
    poll(b, 't-2', 'input_required', { inputRequests: { ...seat, ...meal } });
    poll(b, 't-2', 'input_required', { inputRequests: { ...seat, ...meal } });
    const a = await analyze(b.build(), { final: false });
    const c = a.conversations[0];
    expect(a.conversations).toHaveLength(1);
    expect(steps(c)).toEqual(['create:working×1', 'get:input_required×2', 'get:input_required×3']);
    expect(c.rounds[2].task?.polls?.map((p) => p.exchange)).toEqual([4, 5]);
    expect(c.rounds[2].task?.requests).toEqual({ seat: 'elicitation/create', meal: 'sampling/createMessage' });
    expect(c.status).toBe('in-progress');
  });

  it('does not fold a poll into one that came before an update', async () => {
    const b = capture();
    startTask(b, book, 't-3');
    poll(b, 't-3', 'input_required', { inputRequests: seat });
    update(b, 't-3', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 't-3', 'input_required', { inputRequests: seat });
    const c = (await analyze(b.build())).conversations[0];
    expect(steps(c)).toEqual(['create:working×1', 'get:input_required×1', 'update:-×1', 'get:input_required×1']);
  });

  it('keeps the same taskId on two servers as two tasks', async () => {
    const one = capture({ url: 'http://127.0.0.1:3001/mcp' });
    startTask(one, book, 'same');
    const two = capture({ url: 'http://127.0.0.1:3002/mcp', start: one.now + 10 });
    startTask(two, book, 'same');
    poll(two, 'same', 'completed', { result: { content: [] } });
    const records = [...one.build(), ...two.build().map((r, i) => ({ ...r, seq: 1 + i, id: `two-${i}` }))];
    const a = await analyze(records);
    expect(a.conversations.map((c) => c.exchanges)).toEqual([[0], [1, 2]]);
  });

  it('threads polls of a task the capture did not see created as one conversation of their own', async () => {
    const b = capture();
    poll(b, 'old', 'working');
    poll(b, 'old', 'working');
    poll(b, 'old', 'completed', { result: { content: [] } });
    const a = await analyze(b.build());
    expect(a.conversations).toHaveLength(1);
    expect(a.conversations[0].task).toEqual({ taskId: 'old', created: null, status: 'completed' });
    expect(steps(a.conversations[0])).toEqual(['get:working×2', 'get:completed×1']);
  });

  it('joins a retry of the creating call that answers the task input to the task', async () => {
    const b = capture();
    const create = startTask(b, book, 't-4');
    poll(b, 't-4', 'input_required', { inputRequests: seat });
    b.retry(create, { seat: reply.accept({ seat: 'aisle' }) });
    const a = await analyze(b.build());
    expect(a.conversations).toHaveLength(1);
    expect(a.conversations[0].rounds[2].linkReason).toMatch(/retries the call that created task "t-4"/);
  });
});
