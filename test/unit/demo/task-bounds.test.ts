// The demo's task table bounded in bytes: any caller reaches the demo without a token, and
// 130 tasks with 15 MB topics once took the inspector past its heap. Answers are capped,
// finished tasks make room oldest first, and a table full of running tasks says so.
import { describe, expect, it } from 'vitest';
import { MAX_TASK_ANSWER_BYTES, serveTask, TaskTable } from '../../../server/demo/task-front.js';

const EXT = 'io.modelcontextprotocol/tasks';
let ids = 0;
async function rpc(table: TaskTable, method: string, params: Record<string, unknown>) {
  const body = { jsonrpc: '2.0', id: ++ids, method, params: { ...params, _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: {} } } } } };
  const name = String(params.taskId ?? params.name);
  const res = await serveTask(new Request('http://127.0.0.1/demo/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-name': name }, body: JSON.stringify(body) }), table, false);
  return { status: res!.status, body: (await res!.json()) as Record<string, any> };
}
const start = async (table: TaskTable) => (await rpc(table, 'tools/call', { name: 'research_report', arguments: {} })).body;
const answer = (topic: string) => ({ scope: { action: 'accept', content: { topic, depth: 'brief' } } });

async function runToEnd(table: TaskTable, topic: string): Promise<string> {
  const taskId = (await start(table)).result.taskId as string;
  await rpc(table, 'tasks/get', { taskId });
  await rpc(table, 'tasks/update', { taskId, inputResponses: answer(topic) });
  await rpc(table, 'tasks/get', { taskId });
  await rpc(table, 'tasks/get', { taskId });
  await rpc(table, 'tasks/update', { taskId, inputResponses: { draft: { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' } } });
  await rpc(table, 'tasks/get', { taskId });
  expect((await rpc(table, 'tasks/get', { taskId })).body.result.status).toBe('completed');
  return taskId;
}

describe('demo task table bounds', () => {
  it('refuses an answer past the cap (the real default) with a JSON-RPC error naming the size', async () => {
    const table = new TaskTable();
    const taskId = (await start(table)).result.taskId;
    await rpc(table, 'tasks/get', { taskId });
    const r = await rpc(table, 'tasks/update', { taskId, inputResponses: answer('t'.repeat(MAX_TASK_ANSWER_BYTES)) });
    expect(r.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^inputResponses is \d+ bytes of JSON; the demo takes at most 65536 per tasks\/update\.$/) });
    expect(table.bytes).toBeLessThan(4096);
  });

  it('keeps its bytes within the budget by dropping the oldest finished tasks', async () => {
    const table = new TaskTable(40_000, 1000);
    const done: string[] = [];
    for (let i = 0; i < 20; i++) {
      done.push(await runToEnd(table, `topic-${i}-${'z'.repeat(3000)}`));
      expect(table.bytes).toBeLessThanOrEqual(40_000);
    }
    expect(table.get(done[0])).toBeUndefined();
    expect(table.get(done[19])).toBeDefined();
  });

  it('refuses a new task with a clear error when running tasks fill it', async () => {
    const table = new TaskTable(3000, 1000);
    let last: Record<string, any> = {};
    for (let i = 0; i < 20 && !last.error; i++) last = await start(table);
    expect(last.error).toMatchObject({ code: -32000, message: expect.stringContaining('they are all still running: cancel some') });
    expect(table.bytes).toBeLessThanOrEqual(3000);
  });
});
