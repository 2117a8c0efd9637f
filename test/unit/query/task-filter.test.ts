// The filter terms of the tasks extension: `has:task` and `task:<status>`, on threaded task traffic.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { describeFilter, matchesFilter, parseFilter, type FilterTerm } from '../../../worker/query/index.js';
import type { Conversation } from '../../../worker/protocol.js';
import { capture } from '../../support/capture-builder.js';
import { cancel, poll, startTask } from '../../support/task-traffic.js';
import { subject } from './subjects.js';

function terms(text: string): FilterTerm[] {
  const got = parseFilter(text);
  if (!got.ok) throw new Error(got.error.message);
  return got.terms;
}

async function conversations(): Promise<Conversation[]> {
  const b = capture();
  b.call('tools/call', { name: 'plain', arguments: {} });
  startTask(b, { name: 'slow', arguments: { n: 1 } }, 'done');
  poll(b, 'done', 'completed', { result: { content: [] } });
  startTask(b, { name: 'slow', arguments: { n: 2 } }, 'waiting');
  poll(b, 'waiting', 'working');
  startTask(b, { name: 'slow', arguments: { n: 3 } }, 'stopped');
  cancel(b, 'stopped');
  poll(b, 'stopped', 'cancelled');
  return (await analyze(b.build(), { final: false })).conversations;
}

const names = (cs: Conversation[], filter: string) =>
  cs.filter((c) => matchesFilter(terms(filter), subject(c, [], ''))).map((c) => c.task?.taskId ?? c.name);

describe('task filter terms', () => {
  it('has:task keeps the conversations that hold a task, -has:task the others', async () => {
    const cs = await conversations();
    expect(names(cs, 'has:task')).toEqual(['done', 'waiting', 'stopped']);
    expect(names(cs, '-has:task')).toEqual(['plain']);
  });

  it('task:<status> keeps tasks whose latest status is that one', async () => {
    const cs = await conversations();
    expect(names(cs, 'task:completed')).toEqual(['done']);
    expect(names(cs, 'task:working')).toEqual(['waiting']);
    expect(names(cs, 'task:cancelled')).toEqual(['stopped']);
    expect(names(cs, '-task:working has:task')).toEqual(['done', 'stopped']);
  });

  it('refuses a status the extension does not have, naming the ones it does', () => {
    const got = parseFilter('task:done');
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.error.message).toMatch(/working, input_required, completed, failed, cancelled/);
  });

  it('describes the terms for the status bar', () => {
    expect(describeFilter(terms('has:task task:input_required -task:failed'))).toBe('has a task, task is input_required, task not failed');
  });
});
