// A task's rounds say how they were joined (by taskId), and the Headers tab checks a
// tasks/* request's Mcp-Name against params.taskId, as the extension mirrors it.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { conversationView, indexAnalysis } from '../../../worker/view/conversation-view.js';
import { exchangeView } from '../../../worker/view/exchange-view.js';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { TASK_CAPABILITIES, poll, update } from '../../support/task-traffic.js';

// The conformance suite's test_tool_with_task: one MRTR round asking for user_name, then a
// task, polled until it completes (with one task input on the way).
function mrtrThenTask() {
  const b = capture();
  const first = b.call('tools/call', { name: 'test_tool_with_task', arguments: {} }).capabilities(TASK_CAPABILITIES)
    .inputRequired({ user_name: ask.form('What is your name?', { name: { type: 'string' } }) }, 'rs-1');
  b.retry(first, { user_name: reply.accept({ name: 'Ada' }) }).result({ resultType: 'task', taskId: 'tk-9', status: 'working', createdAt: '2026-12-05T08:00:00Z', lastUpdatedAt: '2026-12-05T08:00:00Z', ttlMs: 60000, pollIntervalMs: 100 });
  poll(b, 'tk-9', 'working');
  poll(b, 'tk-9', 'input_required', { inputRequests: { confirm: ask.form('Go?', { ok: { type: 'boolean' } }) } });
  update(b, 'tk-9', { confirm: reply.accept({ ok: true }) });
  poll(b, 'tk-9', 'completed', { result: { content: [{ type: 'text', text: 'Hello, Ada' }] } });
  return b.build();
}

describe('a task thread', () => {
  it('reads its task rounds as linked by taskId and its MRTR retry as linked by method, name and answer keys', async () => {
    const a = await analyze(mrtrThenTask());
    expect(a.conversations).toHaveLength(1);
    const view = await conversationView(a.conversations[0], indexAnalysis(a), { view: async () => null } as never);
    expect(view.rounds.map((r) => [r.link, r.linkText])).toEqual([
      [null, 'not linked'],
      ['state', '↪ linked by echoed requestState'],
      ['match', '⇢ linked by its taskId'],
      ['match', '⇢ linked by its taskId'],
      ['match', '⇢ linked by its taskId'],
      ['match', '⇢ linked by its taskId'],
    ]);
  });

  it('checks Mcp-Name on tasks/get against params.taskId in the Headers tab', async () => {
    const records = mrtrThenTask();
    const a = await analyze(records);
    const view = exchangeView(records[2], a.decoded[2]);
    const name = view.requestHeaders.find((h) => h.name.toLowerCase() === 'mcp-name');
    expect(name?.check).toEqual({ ok: true, message: 'matches params.taskId' });
  });

  it('names the taskId when Mcp-Name differs from it', async () => {
    const b = capture();
    poll(b, 'tk-1', 'working').header('mcp-name', 'test_tool_with_task');
    const records = b.build();
    const a = await analyze(records);
    const check = exchangeView(records[0], a.decoded[0]).requestHeaders.find((h) => h.name.toLowerCase() === 'mcp-name')?.check;
    expect(check).toEqual({ ok: false, message: 'body names "tk-1" (params.taskId)' });
  });
});
