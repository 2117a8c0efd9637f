import { afterEach, describe, expect, it } from 'vitest';
import { createDemoHandler, type DemoHandler } from '../../../server/demo/handler.js';
import { TASK_SUPPORT_META } from '../../../worker/decode/tool-names.js';

const EXT = 'io.modelcontextprotocol/tasks';
const URL_OK = 'http://127.0.0.1/demo/mcp';
let handler: DemoHandler | null = null;
afterEach(async () => {
  await handler?.close();
  handler = null;
});

type Json = Record<string, any>;
let ids = 0;

// A 2026-07-28 request as a conforming client sends it (envelope and headers).
async function rpc(h: DemoHandler, method: string, params: Json, opts: { tasks?: boolean; url?: string; name?: string | null } = {}): Promise<{ status: number; body: Json }> {
  const caps = opts.tasks === false ? {} : { extensions: { [EXT]: {} } };
  const body = {
    jsonrpc: '2.0', id: ++ids, method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': caps } },
  };
  const name = opts.name !== undefined ? opts.name : (params.taskId ?? params.name ?? null);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  if (name !== null) headers['mcp-name'] = name;
  const res = await h.fetch(new Request(opts.url ?? URL_OK, { method: 'POST', headers, body: JSON.stringify(body) }));
  const text = await res.text();
  const line = res.headers.get('content-type')?.includes('event-stream') ? text.split('\n').find((l) => l.startsWith('data: '))!.slice(6) : text;
  return { status: res.status, body: JSON.parse(line) };
}

async function startTask(h: DemoHandler, url?: string): Promise<string> {
  const created = await rpc(h, 'tools/call', { name: 'research_report', arguments: {} }, url ? { url } : {});
  expect(created.body.result.resultType).toBe('task');
  return created.body.result.taskId;
}
const get = (h: DemoHandler, taskId: string, url?: string) => rpc(h, 'tasks/get', { taskId }, url ? { url } : {}).then((r) => r.body.result);
const update = (h: DemoHandler, taskId: string, inputResponses: Json, url?: string) => rpc(h, 'tasks/update', { taskId, inputResponses }, url ? { url } : {});
const scopeAnswer = { action: 'accept', content: { topic: 'tides', depth: 'brief' } };
const draftAnswer = { role: 'assistant', content: { type: 'text', text: 'Tides rise.' }, model: 'm' };

describe('the demo task tool (research_report)', () => {
  it('advertises the tasks extension in server/discover', async () => {
    handler = createDemoHandler();
    const r = await rpc(handler, 'server/discover', {}, { name: null });
    expect(r.body.result.capabilities.extensions).toEqual({ [EXT]: {} });
  });

  it('says in tools/list, under the inspector\'s _meta key, that it runs only as a task; no other tool says so', async () => {
    handler = createDemoHandler();
    const r = await rpc(handler, 'tools/list', {}, { tasks: false, name: null });
    const tools: Json[] = r.body.result.tools;
    expect(tools.filter((t) => t._meta?.[TASK_SUPPORT_META] === 'required').map((t) => t.name)).toEqual(['research_report']);
    expect(tools.some((t) => 'execution' in t)).toBe(false);
  });

  it('refuses a call that did not declare the extension with -32021 naming it', async () => {
    handler = createDemoHandler();
    const r = await rpc(handler, 'tools/call', { name: 'research_report', arguments: {} }, { tasks: false });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32021);
    expect(r.body.error.data.requiredCapabilities.extensions).toEqual({ [EXT]: {} });
  });

  it('asks a form question and then a sampling question over tasks/get, and completes after both are answered', async () => {
    handler = createDemoHandler();
    const taskId = await startTask(handler);
    const first = await get(handler, taskId);
    expect(first).toMatchObject({ status: 'input_required', resultType: 'complete', pollIntervalMs: 200 });
    expect(first.inputRequests.scope.method).toBe('elicitation/create');
    // A poll before the answer shows the same outstanding request again.
    expect((await get(handler, taskId)).inputRequests).toEqual(first.inputRequests);
    expect((await update(handler, taskId, { scope: scopeAnswer })).body.result).toEqual({ resultType: 'complete' });
    expect((await get(handler, taskId)).status).toBe('working');
    const second = await get(handler, taskId);
    expect(second.status).toBe('input_required');
    expect(Object.keys(second.inputRequests)).toEqual(['draft']);
    expect(second.inputRequests.draft.method).toBe('sampling/createMessage');
    await update(handler, taskId, { draft: draftAnswer });
    expect((await get(handler, taskId)).status).toBe('working');
    const done = await get(handler, taskId);
    expect(done).toMatchObject({ status: 'completed', resultType: 'complete' });
    expect(done.result.content[0].text).toContain('tides');
    expect((await get(handler, taskId)).status).toBe('completed');
  });

  it('ignores answers to keys that are not outstanding: already answered, never asked, or an old key for the new question', async () => {
    handler = createDemoHandler();
    const taskId = await startTask(handler);
    await get(handler, taskId);
    await update(handler, taskId, { scope: scopeAnswer });
    await get(handler, taskId);
    await get(handler, taskId);
    for (const responses of [{ scope: scopeAnswer }, { nope: { action: 'accept', content: {} } }, { scope: draftAnswer }]) {
      expect((await update(handler, taskId, responses)).body.result).toEqual({ resultType: 'complete' });
      const after = await get(handler, taskId);
      expect(after.status).toBe('input_required');
      expect(Object.keys(after.inputRequests)).toEqual(['draft']);
    }
  });

  it('cancels a running task, and a cancelled task stays cancelled', async () => {
    handler = createDemoHandler();
    const taskId = await startTask(handler);
    await get(handler, taskId);
    expect((await rpc(handler, 'tasks/cancel', { taskId })).body.result).toEqual({ resultType: 'complete' });
    expect((await get(handler, taskId)).status).toBe('cancelled');
    await update(handler, taskId, { scope: scopeAnswer });
    expect((await get(handler, taskId)).status).toBe('cancelled');
  });

  it('answers an unknown taskId with -32602, and a Mcp-Name that is not the taskId with -32020', async () => {
    handler = createDemoHandler();
    expect((await rpc(handler, 'tasks/get', { taskId: 'task-nope' })).body.error.code).toBe(-32602);
    const taskId = await startTask(handler);
    const wrong = await rpc(handler, 'tasks/get', { taskId }, { name: 'research_report' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe(-32020);
  });

  it('misbehaving: re-uses the answered key for the second question, says resultType "task" on tasks/get, and reports working after completed', async () => {
    handler = createDemoHandler();
    const url = `${URL_OK}?misbehave=1`;
    const taskId = await startTask(handler, url);
    const first = await get(handler, taskId, url);
    expect(first.resultType).toBe('task');
    await update(handler, taskId, { scope: scopeAnswer }, url);
    await get(handler, taskId, url);
    const second = await get(handler, taskId, url);
    expect(Object.keys(second.inputRequests)).toEqual(['scope']);
    expect(second.inputRequests.scope.method).toBe('sampling/createMessage');
    await update(handler, taskId, { scope: draftAnswer }, url);
    await get(handler, taskId, url);
    expect((await get(handler, taskId, url)).status).toBe('completed');
    expect((await get(handler, taskId, url)).status).toBe('working');
  });
});
