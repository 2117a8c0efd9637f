// worker/mock/tasks.ts: several recorded runs of one task, told apart by the client's
// answers. The capture is the ext-tasks recording (test/fixtures/tasks/ext-tasks.har, run A:
// the scope form accepted) plus runs of the same create made from it as the demo answers
// them: B declines the form (the task completes with an error result), C answers it with an
// empty topic (tasks/update gets a JSON-RPC error), D cancels the task at the form.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { MockMatcher } from '../../../worker/mock/matcher.js';

interface Entry {
  startedDateTime: string;
  request: { postData: { text: string } };
  response: { content: { text: string } };
}
const har = JSON.parse(readFileSync('test/fixtures/tasks/ext-tasks.har', 'utf8')) as { log: { entries: Entry[] } };
const entries = har.log.entries;
const TASK_A = (JSON.parse(entries[3].response.content.text) as { result: { taskId: string } }).result.taskId;
const SCOPE = { action: 'accept', content: { topic: 'tides', depth: 'brief' } };

/** Entries `picks` of run A as another run: its own taskId and JSON-RPC ids, `shift` s later. */
function rerun(name: string, shift: number, picks: number[]): Entry[] {
  return picks.map((i) => {
    const text = JSON.stringify(entries[i]).replaceAll(TASK_A, `task-${name}`).replaceAll('"ext-tasks-', `"${name}-`);
    const e = JSON.parse(text) as Entry;
    e.startedDateTime = new Date(Date.parse(e.startedDateTime) + shift * 1000).toISOString();
    return e;
  });
}
const editBody = (e: Entry, side: 'request' | 'response', edit: (m: Record<string, any>) => void) => {
  const box = side === 'request' ? e.request.postData : e.response.content;
  const m = JSON.parse(box.text) as Record<string, any>;
  edit(m);
  box.text = JSON.stringify(m);
};

const declined = rerun('b', 10, [3, 4, 5, 6]);
editBody(declined[2], 'request', (m) => void (m.params.inputResponses = { scope: { action: 'decline' } }));
editBody(declined[3], 'response', (m) => void Object.assign(m.result, { status: 'completed', result: { resultType: 'complete', isError: true, content: [{ type: 'text', text: 'The report was not written: the scope question was declineed.' }] } }));
const failed = rerun('c', 20, [3, 4, 5]);
editBody(failed[2], 'request', (m) => void (m.params.inputResponses = { scope: { action: 'accept', content: { topic: '', depth: 'brief' } } }));
editBody(failed[2], 'response', (m) => {
  delete m.result;
  m.error = { code: -32602, message: 'scope.topic must not be empty' };
});
const cancelled = rerun('d', 30, [3, 4, 5]);
editBody(cancelled[2], 'request', (m) => {
  m.method = 'tasks/cancel';
  delete m.params.inputResponses;
});
editBody(cancelled[2], 'response', (m) => void (m.result = { taskId: 'task-d', status: 'cancelled' }));

const imported = importCapture(JSON.stringify({ log: { ...har.log, entries: [...entries, ...declined, ...failed, ...cancelled] } }));
if (!imported.ok) throw new Error(imported.error.message);
const book = buildMockBook(imported.exchanges);

let n = 0;
const send = (matcher: MockMatcher, method: string, params: Record<string, unknown>) => matcher.handle({ jsonrpc: '2.0', id: ++n, method, params });
/** The answer's last message (its result or error); a mismatch fails the test. */
const last = (o: ReturnType<MockMatcher['handle']>) => {
  if (o.kind !== 'answer') throw new Error(`expected an answer, got ${JSON.stringify(o)}`);
  return JSON.parse(o.messages.at(-1)!.text) as { result?: Record<string, any>; error?: { message: string } };
};
/** Creates a task; the creates are served from the recorded runs in turn (A, B, C, D). */
const create = (matcher: MockMatcher) => last(send(matcher, 'tools/call', { name: 'research_report', arguments: {} })).result!.taskId as string;

describe('the mock following one of several recorded runs of a task', () => {
  it('holds the four runs as variants of one create', () => {
    expect([...book.byTask.keys()]).toEqual([TASK_A, 'task-b', 'task-c', 'task-d']);
    expect(new Set([...book.byTask.values()].map((c) => c.key)).size).toBe(1);
  });

  it('moves a declining client to the declined run, under the taskId it was given', () => {
    const matcher = new MockMatcher(book);
    const taskId = create(matcher);
    expect(taskId).toBe(TASK_A);
    expect(last(send(matcher, 'tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'input_required' });
    expect(send(matcher, 'tasks/update', { taskId, inputResponses: { scope: { action: 'decline' } } })).toMatchObject({ kind: 'answer', call: book.byTask.get('task-b') });
    const done = last(send(matcher, 'tasks/get', { taskId })).result!;
    expect(done).toMatchObject({ taskId: TASK_A, status: 'completed', result: { isError: true } });
    expect(matcher.mismatches).toEqual([]);
  });

  it('moves an accepting client whose create came from the declined run to the accepted run, to its end', () => {
    const matcher = new MockMatcher(book);
    create(matcher);
    const taskId = create(matcher);
    expect(taskId).toBe('task-b');
    send(matcher, 'tasks/get', { taskId });
    expect(send(matcher, 'tasks/update', { taskId, inputResponses: { scope: SCOPE } })).toMatchObject({ kind: 'answer', call: book.byTask.get(TASK_A) });
    const statuses: string[] = [];
    for (let i = 0; i < 2; i++) statuses.push(last(send(matcher, 'tasks/get', { taskId })).result!.status);
    send(matcher, 'tasks/update', { taskId, inputResponses: { draft: { role: 'assistant', model: 'm', content: { type: 'text', text: 'Tides.' } } } });
    let done = last(send(matcher, 'tasks/get', { taskId })).result!;
    if (done.status === 'working') done = last(send(matcher, 'tasks/get', { taskId })).result!;
    expect(statuses).toEqual(['working', 'input_required']);
    expect(done).toMatchObject({ taskId: 'task-b', status: 'completed', result: { content: [{ text: 'Report on tides (brief) is ready.' }] } });
    expect(matcher.mismatches).toEqual([]);
  });

  it('prefers the run with the very answers sent, then one with the same actions, then the run the task is on', () => {
    const exact = new MockMatcher(book);
    let taskId = create(exact);
    send(exact, 'tasks/get', { taskId });
    expect(last(send(exact, 'tasks/update', { taskId, inputResponses: { scope: { action: 'accept', content: { topic: '', depth: 'brief' } } } }))).toMatchObject({ error: { message: 'scope.topic must not be empty' } });

    // Another accepted scope: runs A and C both accepted; the task stays on the run it is on.
    const onC = new MockMatcher(book);
    for (let i = 0; i < 2; i++) create(onC);
    taskId = create(onC);
    expect(taskId).toBe('task-c');
    send(onC, 'tasks/get', { taskId });
    expect(send(onC, 'tasks/update', { taskId, inputResponses: { scope: { action: 'accept', content: { topic: 'moon', depth: 'brief' } } } })).toMatchObject({ kind: 'answer', call: book.byTask.get('task-c') });
    const onA = new MockMatcher(book);
    taskId = create(onA);
    send(onA, 'tasks/get', { taskId });
    expect(send(onA, 'tasks/update', { taskId, inputResponses: { scope: { action: 'accept', content: { topic: 'moon', depth: 'brief' } } } })).toMatchObject({ kind: 'answer', call: book.byTask.get(TASK_A) });
  });

  it('serves a cancel from the run that recorded one, and still names the error when no run did', () => {
    const matcher = new MockMatcher(book);
    const taskId = create(matcher);
    send(matcher, 'tasks/get', { taskId });
    expect(last(send(matcher, 'tasks/cancel', { taskId })).result).toEqual({ taskId: TASK_A, status: 'cancelled' });
    const again = send(matcher, 'tasks/cancel', { taskId });
    expect(again).toMatchObject({ kind: 'mismatch', error: { data: { reason: 'no-recorded-round' } } });
    expect(matcher.mismatches).toEqual([expect.stringContaining('tasks/cancel: the recording has no cancel of task')]);
  });
});
