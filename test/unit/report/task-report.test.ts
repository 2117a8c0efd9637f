// The CLI's reports on task traffic: the text report shows a task conversation with its
// task, each step and the folded polls; the JSON report carries the task fields.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { jsonReport } from '../../../worker/report/json.js';
import { textReport } from '../../../worker/report/text.js';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { poll, startTask, update } from '../../support/task-traffic.js';

async function taskAnalysis() {
  const b = capture();
  startTask(b, { name: 'book_trip', arguments: {} }, 't-1');
  poll(b, 't-1', 'working');
  poll(b, 't-1', 'working');
  poll(b, 't-1', 'input_required', { inputRequests: { seat: ask.form('Seat?', { seat: { type: 'string' } }) } });
  update(b, 't-1', { seat: reply.accept({ seat: 'aisle' }) });
  poll(b, 't-1', 'completed', { result: { content: [] } });
  return analyze(b.build());
}

const input = { path: 'tasks.jsonl', format: 'jsonl' as const, exchanges: 6 };

describe('reports of task traffic', () => {
  it('the text report shows the task, its steps and how many polls a round stands for', async () => {
    const text = textReport(await taskAnalysis(), input, false);
    expect(text).toContain('tools/call book_trip  c0  complete  5 round(s)');
    expect(text).toContain('task "t-1" completed');
    expect(text).toContain('→ task t-1 working');
    expect(text).toContain('tasks/get → working ×2 polls');
    expect(text).toContain('tasks/get → input_required  asks seat (elicitation/create)');
    expect(text).toContain('answers seat  tasks/update');
    expect(text).toContain('tasks/get → completed');
  });

  it('the JSON report carries the conversation task and each round task', async () => {
    const report = jsonReport(await taskAnalysis(), input, '0.0.0');
    const c = report.conversations[0];
    expect(c.task).toEqual({ taskId: 't-1', created: 0, status: 'completed' });
    expect(c.rounds.map((r) => r.task?.step)).toEqual(['create', 'get', 'get', 'update', 'get']);
    expect(c.rounds[1].task?.polls).toHaveLength(1);
  });
});
