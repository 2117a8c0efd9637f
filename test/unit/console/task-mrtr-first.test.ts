// Call as task on a tool that asks through MRTR before it creates its task (the extension's
// recommended pattern, and the conformance suite's test_tool_with_task): the Console
// answers the rounds as retries of the call, then drives the task it creates.
import { describe, expect, it } from 'vitest';
import { buildRequest, capabilitiesFrom } from '../../../worker/console/request.js';
import { createTaskDriver } from '../../../worker/console/task-driver.js';
import { TASKS_EXTENSION, withTasksExtension } from '../../../worker/console/task-request.js';
import type { ConsoleRequest, ConsoleResponse } from '../../../worker/console/types.js';

type Json = Record<string, any>;
const client = { clientInfo: { name: 'console-test', version: '1' }, capabilities: capabilitiesFrom({ elicitationForm: true }) };
const call = buildRequest({ method: 'tools/call', id: 1000, params: { name: 'test_tool_with_task', arguments: {} }, clientInfo: client.clientInfo, capabilities: withTasksExtension(client.capabilities) });

// A server written from the extension's text: -32021 without the extension, one MRTR round
// for user_name (with requestState), then a task that completes on its first poll.
function taskWithMrtrServer() {
  const bodies: Json[] = [];
  const task = { taskId: 'tk-42', status: 'working', createdAt: '2026-12-05T08:00:00Z', lastUpdatedAt: '2026-12-05T08:00:00Z', ttlMs: 60000, pollIntervalMs: 50 };
  let name = '';
  const send = async (req: ConsoleRequest): Promise<ConsoleResponse> => {
    const body = JSON.parse(req.body) as Json;
    bodies.push(body);
    const reply = (m: Json, status = 200): ConsoleResponse => ({ status, headers: [{ name: 'content-type', value: 'application/json' }], body: JSON.stringify({ jsonrpc: '2.0', id: body.id, ...m }) });
    if (!body.params?._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS_EXTENSION]) {
      return reply({ error: { code: -32021, message: 'tasks extension required', data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } } }, 400);
    }
    if (body.method === 'tools/call') {
      const answer = body.params.inputResponses?.user_name;
      if (answer === undefined || body.params.requestState !== 'rs-user') {
        return reply({ result: { resultType: 'input_required', requestState: 'rs-user', inputRequests: { user_name: { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } } } } });
      }
      name = String(answer.content?.name);
      return reply({ result: { resultType: 'task', ...task } });
    }
    if (body.method === 'tasks/get') return reply({ result: { resultType: 'complete', ...task, status: 'completed', result: { content: [{ type: 'text', text: `Hello, ${name}!` }] } } });
    return reply({ error: { code: -32601, message: 'no such method' } });
  };
  return { send, bodies };
}

describe('Call as task on a tool that asks through MRTR first', () => {
  it('answers the round as a retry of the call, then polls the task it creates to its result', async () => {
    const server = taskWithMrtrServer();
    const d = createTaskDriver({ send: server.send, url: 'http://127.0.0.1:9/mcp', client, sleep: async () => {} });
    await d.start(call);
    expect(d.state.phase).toBe('rounds');
    expect(Object.keys(d.state.outstanding)).toEqual(['user_name']);
    d.answer('user_name', { action: 'accept', content: { name: 'Ada' } });
    await d.submit();
    expect({ phase: d.state.phase, taskId: d.state.taskId, rounds: d.state.rounds }).toEqual({ phase: 'running', taskId: 'tk-42', rounds: 1 });
    await d.pollUntilSettled();
    expect(d.state.status).toBe('completed');
    expect(d.state.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    // The retry: same tool, the answer, the state echoed, a new id, the extension still declared.
    const retry = server.bodies[1];
    expect(retry.params).toMatchObject({ name: 'test_tool_with_task', requestState: 'rs-user', inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } });
    expect(retry.id).not.toBe(1000);
    expect(retry.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(d.state.sends.map((s) => s.kind)).toEqual(['call', 'retry', 'get']);
    // MRTR keys are not task keys: nothing was answered through tasks/update.
    expect(d.state.answered).toEqual({});
  });

  it('will not send a round until every question of it is answered', async () => {
    const server = taskWithMrtrServer();
    const d = createTaskDriver({ send: server.send, url: 'http://127.0.0.1:9/mcp', client });
    await d.start(call);
    await d.submit();
    expect(d.state.message).toMatch(/user_name/);
    expect(server.bodies).toHaveLength(1);
  });
});
