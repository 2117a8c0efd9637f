import { afterEach, describe, expect, it } from 'vitest';
import { createDemoHandler, type DemoHandler } from '../../../server/demo/handler.js';
import { buildRequest, capabilitiesFrom } from '../../../worker/console/request.js';
import { createTaskDriver, type TaskDriver } from '../../../worker/console/task-driver.js';
import { TASKS_EXTENSION, withTasksExtension } from '../../../worker/console/task-request.js';
import type { ConsoleRequest, ConsoleResponse, Transport } from '../../../worker/console/types.js';

const client = { clientInfo: { name: 'console-test', version: '1' }, capabilities: capabilitiesFrom({ elicitationForm: true, sampling: true }) };
let handler: DemoHandler | null = null;
afterEach(async () => {
  await handler?.close();
  handler = null;
});

// The demo handler in-process, as the Console's transport.
function demoTransport(h: DemoHandler): Transport {
  return async (req: ConsoleRequest): Promise<ConsoleResponse> => {
    const res = await h.fetch(new Request(`http://127.0.0.1${req.url}`, { method: 'POST', headers: req.headers.map((x) => [x.name, x.value] as [string, string]), body: req.body }));
    const headers: { name: string; value: string }[] = [];
    res.headers.forEach((value, name) => headers.push({ name, value }));
    return { status: res.status, headers, body: await res.text() };
  };
}

// A clock that only moves when the driver sleeps: every wait it asks for is recorded.
function fakeTime() {
  let t = 1_000_000;
  const waits: number[] = [];
  return { now: () => t, sleep: async (ms: number) => { waits.push(ms); t += ms; }, waits, advance: (ms: number) => { t += ms; } };
}

function driver(path = '/demo/mcp'): { d: TaskDriver; time: ReturnType<typeof fakeTime> } {
  handler = createDemoHandler();
  const time = fakeTime();
  return { d: createTaskDriver({ send: demoTransport(handler), url: path, client, now: time.now, sleep: time.sleep }), time };
}

const call = (id = 100) => buildRequest({ method: 'tools/call', id, params: { name: 'research_report', arguments: {} }, clientInfo: client.clientInfo, capabilities: withTasksExtension(client.capabilities) });
const scope = { action: 'accept', content: { topic: 'tides', depth: 'brief' } };
const draft = { role: 'assistant', content: { type: 'text', text: 'Tides rise and fall.' }, model: 'console' };

describe('the Console task driver', () => {
  it('declares the extension on the call and on every tasks/* request, with Mcp-Name = taskId', async () => {
    const { d } = driver();
    await d.start(call());
    await d.poll();
    const [first, get] = d.state.sends;
    expect(JSON.parse(first.request.body).params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({ [TASKS_EXTENSION]: {} });
    const body = JSON.parse(get.request.body);
    expect(body.method).toBe('tasks/get');
    expect(body.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(get.request.headers.find((h) => h.name === 'Mcp-Name')?.value).toBe(d.state.taskId);
  });

  it('drives the demo task to completion: form answer, sampling answer, a timeline with poll counts', async () => {
    const { d } = driver();
    expect((await d.start(call())).status).toBe('working');
    await d.pollUntilSettled();
    expect(Object.keys(d.state.outstanding)).toEqual(['scope']);
    // A second poll before answering shows the same request: folded into the same timeline entry.
    await d.poll();
    d.answer('scope', scope);
    await d.submit();
    expect(d.state.answered).toEqual({ scope });
    await d.pollUntilSettled();
    expect(Object.keys(d.state.outstanding)).toEqual(['draft']);
    d.answer('draft', draft);
    await d.submit();
    await d.pollUntilSettled();
    expect(d.state.phase).toBe('done');
    expect(d.state.status).toBe('completed');
    expect(JSON.stringify(d.state.result)).toContain('tides');
    expect(d.state.timeline).toEqual([
      { status: 'working', polls: 0 },
      { status: 'input_required', polls: 2 },
      { status: 'working', polls: 1 },
      { status: 'input_required', polls: 1 },
      { status: 'working', polls: 1 },
      { status: 'completed', polls: 1 },
    ]);
    expect(d.state.sends.map((x) => x.kind)).toEqual(['call', 'get', 'get', 'update', 'get', 'get', 'update', 'get', 'get']);
  });

  it('waits out pollIntervalMs between polls instead of polling faster', async () => {
    const { d, time } = driver();
    await d.start(call());
    await d.poll();
    await d.poll();
    // The demo asks for 200 ms; the clock never moved by itself, so each poll waited all of it.
    expect(time.waits).toEqual([200, 200]);
    time.advance(500);
    await d.poll();
    expect(time.waits).toEqual([200, 200]);
  });

  it('cancels a running task and shows it cancelled', async () => {
    const { d } = driver();
    await d.start(call());
    await d.pollUntilSettled();
    await d.cancel();
    expect(d.state.status).toBe('cancelled');
    expect(d.state.phase).toBe('done');
    expect(d.state.sends.map((x) => x.kind).slice(-2)).toEqual(['cancel', 'get']);
  });

  it('runs the key tests: the demo ignores a key answered twice, an unknown key, and a spent key re-used for the open question', async () => {
    const { d } = driver();
    await d.start(call());
    await d.pollUntilSettled();
    d.answer('scope', scope);
    await d.submit();
    await d.pollUntilSettled();
    for (const kind of ['twice', 'unknown', 'reuse'] as const) await d.keyTest(kind);
    expect(d.state.keyTests.map((t) => [t.kind, t.key, t.verdict])).toEqual([
      ['twice', 'scope', 'ignored'],
      ['unknown', 'never-asked-1', 'ignored'],
      ['reuse', 'scope', 'ignored'],
    ]);
    // The re-use test sent the open question's kind of answer (sampling) under the spent key.
    expect((d.state.keyTests[2].sent!.scope as { model?: string }).model).toBeDefined();
    d.answer('draft', draft);
    await d.submit();
    await d.pollUntilSettled();
    expect(d.state.status).toBe('completed');
  });

  it('skips the key tests that need an answered key, with the reason', async () => {
    const { d } = driver();
    await d.start(call());
    await d.pollUntilSettled();
    await d.keyTest('twice');
    expect(d.state.keyTests[0]).toMatchObject({ verdict: 'skipped' });
    expect(d.state.keyTests[0].detail).toContain('answer one');
  });

  it('flags a key the misbehaving task re-issues for a different request, and still lets it be answered', async () => {
    const { d } = driver('/demo/mcp?misbehave=1');
    await d.start(call());
    await d.pollUntilSettled();
    d.answer('scope', scope);
    await d.submit();
    await d.pollUntilSettled();
    expect(d.state.reusedKeys).toEqual(['scope']);
    expect(d.state.outstanding.scope.method).toBe('sampling/createMessage');
    d.answer('scope', draft);
    await d.submit();
    await d.pollUntilSettled();
    expect(d.state.status).toBe('completed');
  });

  it('says so when the call did not create a task', async () => {
    const { d } = driver();
    await d.start(buildRequest({ method: 'tools/call', id: 5, params: { name: 'research_report', arguments: {} }, clientInfo: client.clientInfo, capabilities: client.capabilities }));
    expect(d.state.phase).toBe('not-task');
    expect(d.state.message).toContain('-32021');
  });
});
