// The tasks/* rules: one firing capture and one near miss each, on task traffic threaded
// into one conversation; and a well-behaved task lifecycle that no rule fires on.
import { describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES, ask, capture, reply } from '../../support/capture-builder.js';
import { cancel, poll, startTask, TASK_CAPABILITIES, TASKS, update } from '../../support/task-traffic.js';
import { conversationOf, expectNoInternalErrors, expectNone, expectOne, run } from './lint-helpers.js';

const book = { name: 'book_trip', arguments: { city: 'Oslo' } };
const seat = { seat: ask.form('Window or aisle?', { seat: { type: 'string' } }) };
const meal = { meal: ask.sampling('Suggest a meal') };
const done = { result: { content: [{ type: 'text', text: 'booked' }] } };

/** MRTR round, task, polls, an update and the result: what a good server and client send. */
function goodLifecycle() {
  const b = capture();
  const first = b.call('tools/call', book).capabilities(TASK_CAPABILITIES).inputRequired({ ok: ask.form('Go?', { ok: { type: 'boolean' } }) }, 'tok-1');
  b.retry(first, { ok: reply.accept({ ok: true }) }).result({ resultType: 'task', taskId: 't-1', status: 'working', pollIntervalMs: 500 });
  poll(b, 't-1', 'working');
  poll(b, 't-1', 'input_required', { inputRequests: seat });
  poll(b, 't-1', 'input_required', { inputRequests: seat });
  update(b, 't-1', { seat: reply.accept({ seat: 'aisle' }) });
  poll(b, 't-1', 'input_required', { inputRequests: meal });
  update(b, 't-1', { meal: reply.sampling('Soup.') });
  poll(b, 't-1', 'completed', done);
  return b;
}

describe('a well-behaved task', () => {
  it('threads into one conversation that no rule fires on', async () => {
    const a = await run(goodLifecycle().build());
    expect(a.conversations).toHaveLength(1);
    expectNoInternalErrors(a);
    expect(a.findings.map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
  });
});

describe('tasks/undeclared', () => {
  it('fires when the creating request did not declare the extension', async () => {
    const b = capture();
    b.call('tools/call', book).capabilities(ALL_CAPABILITIES).result({ resultType: 'task', taskId: 't', status: 'working' });
    const a = await run(b.build());
    expectOne(a, 'tasks/undeclared', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent when it did', async () => {
    const b = capture();
    startTask(b, book, 't');
    expectNone(await run(b.build()), 'tasks/undeclared');
  });
});

describe('tasks/method', () => {
  it('fires when a prompts/get is answered with a task', async () => {
    const b = capture();
    b.call('prompts/get', { name: 'p' }).capabilities(TASK_CAPABILITIES).result({ resultType: 'task', taskId: 't', status: 'working' });
    const a = await run(b.build());
    expectOne(a, 'tasks/method', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent for tools/call', async () => {
    const b = capture();
    startTask(b, book, 't');
    expectNone(await run(b.build()), 'tasks/method');
  });

  it('leaves a tasks/get answered "task", as the extension\'s examples show, to tasks/result-type alone', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'working', { resultType: 'task' });
    poll(b, 't', 'completed', { ...done, resultType: 'task' });
    const a = await run(b.build());
    expectNone(a, 'tasks/method');
    expect(a.findings.map((f) => [f.rule, f.exchange, f.severity])).toEqual([['tasks/result-type', 1, 'warning'], ['tasks/result-type', 2, 'warning']]);
  });
});

describe('tasks/result-type', () => {
  it('fires as an error when a tasks/update ack says input_required', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: seat });
    update(b, 't', { seat: reply.accept({ seat: 'aisle' }) }).result({ resultType: 'input_required' });
    const a = await run(b.build());
    expectOne(a, 'tasks/result-type', { exchange: 2, severity: 'error', conversation: conversationOf(a, 0, 2) });
  });

  it('fires as a warning when tasks/get says "task", as the spec examples do', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'completed', { ...done, resultType: 'task' });
    const a = await run(b.build());
    expectOne(a, 'tasks/result-type', { exchange: 1, severity: 'warning', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent for complete', async () => {
    expectNone(await run(goodLifecycle().build()), 'tasks/result-type');
  });
});

describe('tasks/input-incomplete', () => {
  it('fires when a poll drops an outstanding request that was never answered', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: { ...seat, ...meal } });
    poll(b, 't', 'input_required', { inputRequests: meal });
    const a = await run(b.build());
    expectOne(a, 'tasks/input-incomplete', { exchange: 2, severity: 'error', conversation: conversationOf(a, 0, 1, 2) });
  });

  it('stays silent when the dropped key was answered by tasks/update', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: { ...seat, ...meal } });
    update(b, 't', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 't', 'input_required', { inputRequests: meal });
    expectNone(await run(b.build()), 'tasks/input-incomplete');
  });
});

describe('tasks/key-reused', () => {
  it('fires when a delivered key comes back after it was dropped', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: seat });
    update(b, 't', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 't', 'working');
    poll(b, 't', 'input_required', { inputRequests: seat });
    const a = await run(b.build());
    expectOne(a, 'tasks/key-reused', { exchange: 4, severity: 'error', conversation: conversationOf(a, 0, 4) });
  });

  it('fires when one key names two different requests', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: seat });
    poll(b, 't', 'input_required', { inputRequests: { seat: ask.form('Which class?', { cls: { type: 'string' } }) } });
    const a = await run(b.build());
    expectOne(a, 'tasks/key-reused', { exchange: 2, severity: 'error', conversation: conversationOf(a, 0, 2) });
  });

  it('stays silent when a poll right after the update still shows the key (eventual consistency)', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: seat });
    update(b, 't', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 't', 'input_required', { inputRequests: seat });
    poll(b, 't', 'completed', done);
    expectNone(await run(b.build()), 'tasks/key-reused');
  });
});

describe('tasks/update-not-outstanding', () => {
  it('fires when an update answers a key twice', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: seat });
    update(b, 't', { seat: reply.accept({ seat: 'aisle' }) });
    update(b, 't', { seat: reply.accept({ seat: 'window' }) });
    const a = await run(b.build());
    expectOne(a, 'tasks/update-not-outstanding', { exchange: 3, severity: 'warning', conversation: conversationOf(a, 0, 3) });
  });

  it('fires when an update answers a key never asked for', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: seat });
    update(b, 't', { colour: reply.accept({}) });
    const a = await run(b.build());
    expectOne(a, 'tasks/update-not-outstanding', { exchange: 2, severity: 'warning', conversation: conversationOf(a, 0, 2) });
  });

  it('fires when the client answers again a key that a poll right after its answer still shows (eventual consistency)', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: seat });
    update(b, 't', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 't', 'input_required', { inputRequests: seat });
    update(b, 't', { seat: reply.accept({ seat: 'aisle' }) });
    const a = await run(b.build());
    expectOne(a, 'tasks/update-not-outstanding', { exchange: 4, severity: 'warning', conversation: conversationOf(a, 0, 4) });
  });

  it('stays silent on the client when the server re-uses a key for a new request: tasks/key-reused alone reports it', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: { scope: ask.form('Which folders?', { scope: { type: 'string' } }) } });
    update(b, 't', { scope: reply.accept({ scope: 'docs' }) });
    poll(b, 't', 'input_required', { inputRequests: { scope: ask.form('Include archives?', { archives: { type: 'boolean' } }) } });
    update(b, 't', { scope: reply.accept({ archives: false }) });
    poll(b, 't', 'completed', done);
    const a = await run(b.build());
    expect(a.findings.map((f) => [f.rule, f.exchange])).toEqual([['tasks/key-reused', 3]]);
  });

  it('stays silent on the client when the server drops an answered key and asks for it again', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: seat });
    update(b, 't', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 't', 'working');
    poll(b, 't', 'input_required', { inputRequests: seat });
    update(b, 't', { seat: reply.accept({ seat: 'window' }) });
    const a = await run(b.build());
    expect(a.findings.map((f) => [f.rule, f.exchange])).toEqual([['tasks/key-reused', 4]]);
  });

  it('stays silent when each update answers what the latest poll asked', async () => {
    expectNone(await run(goodLifecycle().build()), 'tasks/update-not-outstanding');
  });
});

describe('tasks/input-by-retry', () => {
  it('fires when the client retries the creating call with inputResponses', async () => {
    const b = capture();
    const create = startTask(b, book, 't');
    poll(b, 't', 'input_required', { inputRequests: seat });
    b.retry(create, { seat: reply.accept({ seat: 'aisle' }) });
    const a = await run(b.build());
    expectOne(a, 'tasks/input-by-retry', { exchange: 2, severity: 'error', conversation: conversationOf(a, 0, 1, 2) });
  });

  it('stays silent when the MRTR retry comes before the task exists', async () => {
    expectNone(await run(goodLifecycle().build()), 'tasks/input-by-retry');
  });
});

describe('tasks/name-header', () => {
  it('fires when Mcp-Name is not the taskId', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'working').header('mcp-name', 'book_trip');
    const a = await run(b.build());
    expectOne(a, 'tasks/name-header', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('fires when it is missing', async () => {
    const b = capture();
    startTask(b, book, 't');
    cancel(b, 't').header('mcp-name', null);
    const a = await run(b.build());
    expectOne(a, 'tasks/name-header', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent when it is the taskId, base64-encoded or not', async () => {
    const b = capture();
    startTask(b, book, 'tâche');
    poll(b, 'tâche', 'working').header('mcp-name', `=?base64?${Buffer.from('tâche').toString('base64')}?=`);
    expectNone(await run(b.build()), 'tasks/name-header');
  });
});

describe('tasks/status-after-terminal', () => {
  it('fires when a completed task reports working again', async () => {
    const b = capture();
    startTask(b, book, 't');
    poll(b, 't', 'completed', done);
    poll(b, 't', 'working');
    const a = await run(b.build());
    expectOne(a, 'tasks/status-after-terminal', { exchange: 2, severity: 'error', conversation: conversationOf(a, 0, 2) });
  });

  it('stays silent when a cancelled task keeps reporting cancelled', async () => {
    const b = capture();
    startTask(b, book, 't');
    cancel(b, 't');
    poll(b, 't', 'cancelled');
    poll(b, 't', 'cancelled');
    expectNone(await run(b.build()), 'tasks/status-after-terminal');
  });
});

describe('tasks/unknown-task-code', () => {
  it('fires when a poll of a task the server never knew is answered -32603', async () => {
    const b = capture();
    poll(b, 'nope', 'working').error(-32603, 'no such task');
    const a = await run(b.build());
    expectOne(a, 'tasks/unknown-task-code', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent when a client that did not declare the extension gets -32021, as the conformance suite probes', async () => {
    const b = capture();
    const required = { data: { requiredCapabilities: { extensions: { [TASKS]: {} } } }, status: 400 };
    poll(b, 'gate-test', 'working').capabilities({}).error(-32021, 'tasks/get needs the tasks extension', required);
    b.call('tasks/update', { taskId: 'gate-test', inputResponses: {} }).capabilities({}).header('mcp-name', 'gate-test').error(-32021, 'needs the extension', required);
    b.call('tasks/cancel', { taskId: 'gate-test' }).capabilities({}).header('mcp-name', 'gate-test').error(-32021, 'needs the extension', required);
    expectNone(await run(b.build()), 'tasks/unknown-task-code');
  });

  it('still fires on -32021 when the polling client did declare the extension', async () => {
    const b = capture();
    poll(b, 'gate-test', 'working').error(-32021, 'no such task', { data: { requiredCapabilities: {} }, status: 400 });
    const a = await run(b.build());
    expectOne(a, 'tasks/unknown-task-code', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent for -32602, and for an internal error on a task the server created', async () => {
    const b = capture();
    poll(b, 'nope', 'working').error(-32602, 'unknown task');
    startTask(b, book, 'real');
    poll(b, 'real', 'working').error(-32603, 'database down');
    expectNone(await run(b.build()), 'tasks/unknown-task-code');
  });
});

describe('tasks/poll-too-fast', () => {
  it('fires once when polls come faster than pollIntervalMs', async () => {
    const b = capture({ step: 100 });
    startTask(b, book, 't', { pollIntervalMs: 1000 });
    poll(b, 't', 'working');
    poll(b, 't', 'working');
    poll(b, 't', 'working');
    const a = await run(b.build());
    const f = expectOne(a, 'tasks/poll-too-fast', { exchange: 2, severity: 'info', conversation: conversationOf(a, 0, 1, 2, 3) });
    expect(f.message).toMatch(/2 times/);
  });

  it('stays silent when the client waits the interval, and for a poll right after an update', async () => {
    const b = capture({ step: 1200 });
    startTask(b, book, 't', { pollIntervalMs: 1000 });
    poll(b, 't', 'input_required', { inputRequests: seat });
    const sent = b.now;
    update(b, 't', { seat: reply.accept({ seat: 'aisle' }) });
    poll(b, 't', 'working').at(sent + 50);
    poll(b, 't', 'completed', done);
    expectNone(await run(b.build()), 'tasks/poll-too-fast');
  });
});
