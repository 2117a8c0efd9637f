// The task card's data: status timeline, polls and their pace, keys outstanding and
// answered over the task's life, and how it ended.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { indexAnalysis } from '../../../worker/view/conversation-view.js';
import { taskCardView } from '../../../worker/view/task-card.js';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { cancel, poll, startTask, update } from '../../support/task-traffic.js';

const seat = { seat: ask.form('Window or aisle?', { seat: { type: 'string' } }) };
const meal = { meal: ask.sampling('Suggest a meal') };

describe('taskCardView', () => {
  it('builds the timeline, poll pace, keys and final result of a finished task', async () => {
    const b = capture({ step: 600 });
    startTask(b, { name: 'book', arguments: {} }, 't-1', { pollIntervalMs: 500 });
    poll(b, 't-1', 'working');
    poll(b, 't-1', 'working');
    poll(b, 't-1', 'input_required', { inputRequests: { ...seat, ...meal } });
    update(b, 't-1', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 't-1', 'completed', { result: { content: [{ type: 'text', text: 'booked' }] } });
    const a = await analyze(b.build());
    const card = taskCardView(a.conversations[0], indexAnalysis(a))!;
    expect(card.timeline.map((s) => [s.status, s.reports])).toEqual([['working', 3], ['input_required', 1], ['completed', 1]]);
    expect({ polls: card.polls, folded: card.folded, updates: card.updates, interval: card.pollIntervalMs, observed: card.observedIntervalMs })
      .toEqual({ polls: 4, folded: 1, updates: 1, interval: 500, observed: 600 });
    expect(card.answered).toEqual([{ key: 'seat', method: 'elicitation/create', answeredIn: 4 }]);
    expect(card.outstanding).toEqual([]);
    expect(card.final).toEqual({ kind: 'result', value: { content: [{ type: 'text', text: 'booked' }] } });
    expect(card.status).toBe('completed');
  });

  it('lists what a waiting task still needs, and a failed task its error', async () => {
    const b = capture();
    startTask(b, { name: 'book', arguments: {} }, 'w');
    poll(b, 'w', 'input_required', { inputRequests: { ...seat, ...meal } });
    update(b, 'w', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 'w', 'input_required', { inputRequests: meal });
    startTask(b, { name: 'book', arguments: {} }, 'f');
    poll(b, 'f', 'failed', { error: { code: -32603, message: 'no seats' } });
    const a = await analyze(b.build());
    const index = indexAnalysis(a);
    const [waiting, failed] = a.conversations.map((c) => taskCardView(c, index)!);
    expect(waiting.outstanding.map((k) => k.key)).toEqual(['meal']);
    expect(waiting.answered.map((k) => k.key)).toEqual(['seat']);
    expect(waiting.final).toBeNull();
    expect(failed.final).toEqual({ kind: 'error', value: { code: -32603, message: 'no seats' } });
  });

  it('shows a poll refused for an undeclared extension as a refused request, not as the task ending in error', async () => {
    const b = capture();
    poll(b, 'gate-test', 'working').capabilities({}).error(-32021, 'tasks/get needs the tasks extension', { status: 400, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
    const a = await analyze(b.build());
    const card = taskCardView(a.conversations[0], indexAnalysis(a))!;
    expect(card.final).toBeNull();
    expect(card.known).toBe(false);
    expect(card.refused).toEqual([{ exchange: 0, method: 'tasks/get', code: -32021, message: 'tasks/get needs the tasks extension' }]);
  });

  it('keeps a live task live when one poll is refused for its headers', async () => {
    const b = capture();
    startTask(b, { name: 'slow_compute', arguments: { seconds: 60 } }, 'live', { pollIntervalMs: 250 });
    poll(b, 'live', 'working');
    poll(b, 'live', 'working').header('mcp-name', 'slow_compute').error(-32020, 'Bad Request: the request headers and body disagree', { status: 400 });
    cancel(b, 'live');
    const a = await analyze(b.build());
    const card = taskCardView(a.conversations[0], indexAnalysis(a))!;
    expect({ status: card.status, cancelled: card.cancelled, final: card.final, known: card.known }).toEqual({ status: 'working', cancelled: true, final: null, known: true });
    expect(card.refused.map((x) => [x.method, x.code])).toEqual([['tasks/get', -32020]]);
  });

  it('gives no card for a conversation without a task', async () => {
    const b = capture();
    b.call('tools/call', { name: 'plain', arguments: {} });
    const a = await analyze(b.build());
    expect(taskCardView(a.conversations[0], indexAnalysis(a))).toBeNull();
  });
});
