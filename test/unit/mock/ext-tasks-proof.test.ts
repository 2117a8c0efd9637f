// The proof for the tasks extension: the official ext-tasks client (0.2.2 over the SDK
// v2 client) runs the demo's research_report task (created by tools/call, polled with
// tasks/get, answered with tasks/update: a form, then a sampling request) against a mock
// built from a capture of that very run, recorded in the test through the recording proxy,
// and settles it to the same outcome, asked the same things; the mock logs no mismatch.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { serveDemo } from '../../peers/serve-demo.js';
import { startRecordingProxy } from '../../peers/recording-proxy.js';
import { importCapture } from '../../../worker/capture/index.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { MockMatcher } from '../../../worker/mock/matcher.js';
import { summarize } from '../../../worker/mock/summary.js';
import { startMockHttp } from '../../../cli/mock/http-server.js';
import { taskFlow, type TaskRun } from '../../support/task-flow.js';

const stops: (() => Promise<void>)[] = [];

/** The distinct taskIds a run's outcome names. */
const taskIdsOf = (run: TaskRun) => [...new Set([...JSON.stringify(run.outcome).matchAll(/"taskId":"([^"]+)"/g)].map((m) => m[1]))];
/** The run with its taskIds blanked: what two runs of one task are compared on. */
const withoutTaskIds = (run: TaskRun) => JSON.parse(JSON.stringify(run).replace(/"taskId":"[^"]+"/g, '"taskId":"…"')) as TaskRun;
/** A mock over HTTP (`--timing fast`) built from a recorded HAR, stopped after the test, with its log. */
async function mockOf(har: unknown) {
  const imported = importCapture(JSON.stringify(har));
  if (!imported.ok) throw new Error(imported.error.message);
  const matcher = new MockMatcher(buildMockBook(imported.exchanges));
  const log: string[] = [];
  const server = await startMockHttp(matcher, { port: 0, timing: 'fast', log: (l) => void log.push(l) });
  stops.push(() => server.close());
  return { matcher, server, log };
}
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

describe('mock served to the ext-tasks client', () => {
  it('settles the demo\'s research_report task as the demo did, asked the same keys, with no mismatch', async () => {
    const demo = await serveDemo();
    stops.push(() => demo.close());
    const proxy = await startRecordingProxy({ target: demo.url });
    stops.push(() => proxy.close());
    const real = await taskFlow(proxy.url);
    await proxy.settled();
    expect(real.kind).toBe('task');
    expect(real.outcome).toMatchObject({ status: 'completed' });
    expect(real.asked.map((a) => a.kind)).toEqual(['elicitation', 'sampling']);
    const { matcher, server, log } = await mockOf(proxy.har());
    expect(await taskFlow(server.url)).toEqual(real);
    expect(log).toEqual([]);
    const summary = summarize(matcher, 'ext-tasks', server.answered());
    expect(summary.mismatches).toEqual([]);
  }, 60_000);

  it('follows the recorded run the client\'s answer selects: a decline gets the declined run, an accept the accepted one, whichever run the create was served from', async () => {
    const demo = await serveDemo();
    stops.push(() => demo.close());
    const proxy = await startRecordingProxy({ target: demo.url });
    stops.push(() => proxy.close());
    const accepted = await taskFlow(proxy.url, 'accept');
    const declined = await taskFlow(proxy.url, 'decline');
    await proxy.settled();
    expect(declined.outcome).not.toEqual(accepted.outcome);
    expect(declined.asked.map((a) => a.kind)).toEqual(['elicitation']);
    const { matcher, server, log } = await mockOf(proxy.har());
    // Equal creates are served from the recorded runs in turn (the accepted run first), so
    // each client starts on the run its answer does not select, and keeps the taskId that
    // run gave it: the outcome is the selected run's, under the client's taskId.
    const served = [await taskFlow(server.url, 'decline'), await taskFlow(server.url, 'accept')];
    expect(served.map(taskIdsOf)).toEqual([[taskIdsOf(accepted)[0]], [taskIdsOf(declined)[0]]]);
    expect(served.map(withoutTaskIds)).toEqual([withoutTaskIds(declined), withoutTaskIds(accepted)]);
    expect(log).toEqual([]);
    expect(summarize(matcher, 'ext-tasks', server.answered()).mismatches).toEqual([]);
  }, 60_000);
});

describe('the mock following a recorded task (test/fixtures/tasks/ext-tasks.har)', () => {
  const imported = importCapture(readFileSync('test/fixtures/tasks/ext-tasks.har', 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  const book = buildMockBook(imported.exchanges);
  const [taskId] = [...book.byTask.keys()];
  let n = 0;
  const send = (matcher: MockMatcher, method: string, params: Record<string, unknown>) => matcher.handle({ jsonrpc: '2.0', id: ++n, method, params });
  const resultOf = (o: ReturnType<MockMatcher['handle']>) => (o.kind === 'answer' ? (JSON.parse(o.messages.at(-1)!.text) as { result: Record<string, unknown> }).result : o);
  const create = (matcher: MockMatcher) => send(matcher, 'tools/call', { name: 'research_report', arguments: {} });
  const scope = { scope: { action: 'accept', content: { topic: 'tides', depth: 'brief' } } };

  it('indexes the task by its recorded taskId', () => {
    expect(book.byTask.size).toBe(1);
    expect(book.byTask.get(taskId)!.rounds.map((r) => r.task?.step)).toEqual(['create', 'get', 'update', 'get', 'get', 'update', 'get', 'get']);
  });

  it('polls again give the last recorded poll while the client has not answered it', () => {
    const matcher = new MockMatcher(book);
    expect(resultOf(create(matcher))).toMatchObject({ resultType: 'task', taskId });
    for (let i = 0; i < 3; i++) expect(resultOf(send(matcher, 'tasks/get', { taskId }))).toMatchObject({ status: 'input_required', inputRequests: { scope: expect.anything() } });
    expect(send(matcher, 'tasks/update', { taskId, inputResponses: scope }).kind).toBe('answer');
    expect(resultOf(send(matcher, 'tasks/get', { taskId }))).toMatchObject({ status: 'working' });
    expect(matcher.mismatches).toEqual([]);
  });

  it('names the error for a task never created, an unknown taskId, a missing answer, an unasked key under --strict and a cancel never recorded', () => {
    const matcher = new MockMatcher(book, { strict: true });
    const err = (o: ReturnType<MockMatcher['handle']>) => (o.kind === 'mismatch' ? { code: o.error.code, reason: o.error.data.reason, message: o.error.message } : o);
    expect(err(send(matcher, 'tasks/get', { taskId }))).toMatchObject({ reason: 'task-not-created', message: expect.stringContaining('tools/call research_report (conversation') });
    create(matcher);
    expect(err(send(matcher, 'tasks/get', { taskId: 'task-nope' }))).toMatchObject({ code: -32602, reason: 'unknown-task', message: expect.stringContaining(JSON.stringify(taskId)) });
    send(matcher, 'tasks/get', { taskId });
    expect(err(send(matcher, 'tasks/update', { taskId, inputResponses: { topic: {} } }))).toMatchObject({ reason: 'missing-answer', message: expect.stringContaining('lacks "scope"') });
    expect(err(send(matcher, 'tasks/update', { taskId, inputResponses: { ...scope, extra: {} } }))).toMatchObject({ reason: 'unasked-key', message: expect.stringContaining('"extra", never asked') });
    expect(err(send(matcher, 'tasks/cancel', { taskId }))).toMatchObject({ reason: 'no-recorded-round', message: expect.stringContaining('no cancel') });
    expect(matcher.mismatches).toHaveLength(5);
  });
});
