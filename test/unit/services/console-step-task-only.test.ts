// ▶ Call does not declare the tasks extension, so a task-required tool answers it -32021;
// the step view says to use ▶ Call as task instead of leaving a bare error.
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoHandler, type DemoHandler } from '../../../server/demo/handler.js';
import { ConsoleStep } from '../../../worker/services/console-step.js';
import type { ConsoleRequest, ConsoleResponse, Transport } from '../../../worker/console/types.js';

let handler: DemoHandler | null = null;
afterEach(async () => {
  await handler?.close();
  handler = null;
});

function transport(h: DemoHandler): Transport {
  return async (req: ConsoleRequest): Promise<ConsoleResponse> => {
    const res = await h.fetch(new Request(`http://127.0.0.1${req.url}`, { method: 'POST', headers: req.headers.map((x) => [x.name, x.value] as [string, string]), body: req.body }));
    const headers: { name: string; value: string }[] = [];
    res.headers.forEach((value, name) => headers.push({ name, value }));
    return { status: res.status, headers, body: await res.text() };
  };
}

const setup = { toggles: { elicitationForm: true }, clientInfo: { name: 'console-test', version: '1' } } as never;

describe('▶ Call on a task-required tool', () => {
  it('says the tool runs only as a task and points to ▶ Call as task', async () => {
    handler = createDemoHandler();
    const step = new ConsoleStep(async () => null);
    const view = await step.start({ url: '/demo/mcp?fixtures=conformance', method: 'tools/call', params: { name: 'test_tool_with_task', arguments: {} }, setup }, transport(handler), 1);
    expect(view.rounds[0].summary).toMatch(/^error -32021/);
    expect(view.message).toMatch(/only as a task.*▶ Call as task/);
  });

  it('adds nothing to an ordinary tool\'s answer', async () => {
    handler = createDemoHandler();
    const step = new ConsoleStep(async () => null);
    const view = await step.start({ url: '/demo/mcp?fixtures=conformance', method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ada' } }, setup }, transport(handler), 1);
    expect(view.rounds[0].summary).toBe('complete: Hello, Ada!');
    expect(view.message).toBeUndefined();
  });
});
