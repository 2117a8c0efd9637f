// A small generated capture for the live-engine tests: calls of two tools that may echo
// tokens, answer input, error, stay unanswered or start tasks, plus task polls and
// tools/list; and the earlier versions of a record as live capture stores it.
import fc from 'fast-check';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { ask, capture, reply } from './capture-builder.js';

const TOKENS = ['tok-a', 'tok-b', 'tok-c'];
const KEYS = ['k1', 'k2'];
export const step = fc.record({
  method: fc.constantFrom('tools/call', 'tools/call', 'tools/call', 'prompts/get', 'tools/list', 'tasks/get', 'tasks/get', 'tasks/update', 'tasks/cancel'),
  name: fc.constantFrom('a', 'b'),
  state: fc.option(fc.constantFrom(...TOKENS), { nil: undefined }),
  responses: fc.option(fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(reply.accept({ f: 'v' }), reply.decline()), { maxKeys: 2 }), { nil: undefined }),
  answer: fc.constantFrom('input', 'input', 'complete', 'error', 'none', 'garbage', 'task'),
  // Tasks: which task a call creates or a tasks/* request names, and what a poll reports.
  task: fc.constantFrom('t1', 't2'),
  status: fc.constantFrom('working', 'input_required', 'input_required', 'completed'),
  token: fc.option(fc.constantFrom(...TOKENS), { nil: undefined }),
  sse: fc.boolean(),
  gap: fc.integer({ min: 0, max: 3 }),
});
export type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

export function build(steps: Step[]): ExchangeRecord[] {
  const b = capture();
  let t = 100;
  steps.forEach((s) => {
    t += s.gap;
    const tasks = s.method.startsWith('tasks/');
    const call = b.call(s.method, s.method === 'tools/list' ? {} : tasks ? { taskId: s.task } : { name: s.name, arguments: { x: 1 } }, t);
    if (s.state !== undefined && !tasks) call.state(s.state);
    if (s.responses !== undefined && s.method !== 'tasks/get' && s.method !== 'tasks/cancel') call.responses(JSON.parse(JSON.stringify(s.responses)));
    if (tasks && (s.answer === 'input' || s.answer === 'complete' || s.answer === 'task')) {
      const asked = s.status === 'input_required' ? { inputRequests: s.responses === undefined ? { k1: ask.form('m', { f: { type: 'string' } }) } : { k2: ask.form('n', {}) } } : {};
      call.result(s.method === 'tasks/get' ? { resultType: s.answer === 'task' ? 'task' : 'complete', taskId: s.task, status: s.status, ...asked } : { resultType: 'complete' });
    } else if (s.answer === 'task') call.result({ resultType: 'task', taskId: s.task, status: 'working' });
    else if (s.answer === 'input') call.inputRequired({ k1: ask.form('m', { f: { type: 'string' } }) }, s.token);
    else if (s.answer === 'complete') call.complete();
    else if (s.answer === 'error') call.error(-32602, 'bad', { status: 400 });
    else if (s.answer === 'none') call.noResponse();
    else call.answer('not json');
    if (s.sse && s.answer !== 'none') call.sse([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }]);
  });
  return b.build();
}

/** Earlier versions of a record as it was recorded: pending, then part of its stream. */
export function versions(r: ExchangeRecord): ExchangeRecord[] {
  const out: ExchangeRecord[] = [{ ...structuredClone(r), state: 'pending', response: undefined, endedAt: undefined }];
  const events = r.response?.events;
  if (r.response && events && events.length > 1) {
    out.push({ ...structuredClone(r), state: 'streaming', endedAt: undefined, response: { ...structuredClone(r.response), events: structuredClone(events.slice(0, 1)) } });
  }
  return out;
}
