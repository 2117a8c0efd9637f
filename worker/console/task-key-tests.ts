// The Console's key tests on a running task: answer a key twice, answer a key the task never
// asked, and re-use a spent key for the question open now. Servers SHOULD ignore answers to
// keys that are not outstanding (tasks:377-379), so each test sends one tasks/update, polls,
// and says whether the task ignored it (its status and open questions unchanged), took it,
// or refused the update with an error.
import { asObject } from '../decode/meta.js';
import type { KeyTestKind, KeyTestOutcome, TaskDriverState, TaskSend } from './task-state.js';

export type { KeyTestKind, KeyTestOutcome } from './task-state.js';
import type { RoundReading } from './types.js';

/** What a key test needs from its driver. */
export interface KeyTestContext {
  state: TaskDriverState;
  update(responses: Record<string, unknown>): Promise<TaskSend>;
  poll(): Promise<TaskDriverState>;
}

/** The labels the Console shows for the tests. */
export const KEY_TEST_LABELS: Record<KeyTestKind, string> = {
  twice: 'Answer a key twice',
  unknown: 'Answer an unknown key',
  reuse: 'Re-use a key',
};

function plan(kind: KeyTestKind, s: TaskDriverState): { key: string; responses: Record<string, unknown> } | string {
  const answered = Object.keys(s.answered);
  const lastAnswered = answered[answered.length - 1];
  const open = Object.keys(s.outstanding)[0];
  // Only while the task waits for input: a working task may move on by itself between the
  // update and the poll, which would read as the server having taken the answer.
  if (open === undefined) return 'poll until the task asks a question: a working task may move on by itself and hide what the update did';
  if (kind === 'unknown') {
    let n = 1;
    while (`never-asked-${n}` in s.answered || `never-asked-${n}` in s.outstanding) n++;
    const key = `never-asked-${n}`;
    return { key, responses: { [key]: { action: 'accept', content: {} } } };
  }
  if (lastAnswered === undefined) return 'answer one of the task\'s requests first: this test re-sends a delivered key';
  if (kind === 'twice') return { key: lastAnswered, responses: { [lastAnswered]: s.answered[lastAnswered] } };
  // The answer the open question would get, sent under the spent key instead.
  const answer = s.staged[open] ?? guessAnswer(s.outstanding[open]?.method);
  return { key: lastAnswered, responses: { [lastAnswered]: answer } };
}

function guessAnswer(method: string | undefined): Record<string, unknown> {
  if (method === 'sampling/createMessage') return { role: 'assistant', content: { type: 'text', text: 'key test' }, model: 'mrtr-inspector-console' };
  if (method === 'roots/list') return { roots: [] };
  return { action: 'accept', content: {} };
}

function errorLine(r: RoundReading): string {
  if (r.kind === 'error') return `error ${r.error.code}: ${r.error.message}`;
  if (r.kind === 'failed') return r.message;
  return String(asObject(r.result)?.resultType ?? r.kind);
}

/** Runs one key test: one tasks/update, then one tasks/get to see what it did. */
export async function runKeyTest(kind: KeyTestKind, ctx: KeyTestContext): Promise<KeyTestOutcome> {
  const before = ctx.state;
  if (before.phase !== 'running' || !before.taskId) return { kind, key: '', verdict: 'skipped', detail: 'the task is not running: start a task first (a finished task ignores every update)' };
  const p = plan(kind, before);
  if (typeof p === 'string') return { kind, key: '', verdict: 'skipped', detail: p };
  const sent = await ctx.update(p.responses);
  if (sent.reading.kind === 'failed') return { kind, key: p.key, verdict: 'failed', detail: sent.reading.message, sent: p.responses };
  if (sent.reading.kind === 'error') {
    return { kind, key: p.key, verdict: 'refused', detail: `the server answered ${errorLine(sent.reading)}; it SHOULD acknowledge and ignore keys that are not outstanding (tasks:377-379)`, sent: p.responses };
  }
  const openBefore = Object.keys(before.outstanding).sort().join(',');
  const after = await ctx.poll();
  const openAfter = Object.keys(after.outstanding).sort().join(',');
  if (after.status === before.status && openAfter === openBefore) {
    return { kind, key: p.key, verdict: 'ignored', detail: `acknowledged and ignored: the task is still ${after.status ?? 'unknown'}${openAfter ? `, waiting for ${openAfter}` : ''}`, sent: p.responses };
  }
  return { kind, key: p.key, verdict: 'accepted', detail: `the task took it: ${before.status ?? '?'}${openBefore ? ` (${openBefore})` : ''} → ${after.status ?? '?'}${openAfter ? ` (${openAfter})` : ''}`, sent: p.responses };
}
