// The task card of a thread (pure): a task's status timeline, its polls and their pace, the
// input keys outstanding and answered over its life, and how it ended. Built from the task
// ledger (thread/task-ledger.ts) that the tasks/* rules read, so card and findings agree.
import type { Conversation } from '../protocol.js';
import { taskLedger, type TaskEvent } from '../thread/task-ledger.js';
import { taskFields } from '../decode/task.js';
import type { AnalysisIndex } from './analysis-index.js';
import type { TaskCardView, TaskKeyView, TaskStatusView } from './types.js';

const METHOD: Record<TaskEvent['kind'], string> = { create: 'tools/call', retry: 'tools/call', poll: 'tasks/get', update: 'tasks/update', cancel: 'tasks/cancel' };

/** The card of a conversation holding a task; null for any other. */
export function taskCardView(c: Conversation, index: AnalysisIndex): TaskCardView | null {
  if (c.task === undefined) return null;
  const ledger = taskLedger(c, (seq, side, i) => index.bySeq.get(seq)?.decoded[side][i]);
  const timeline: TaskStatusView[] = [];
  const polls: TaskEvent[] = [];
  // The client's pace: gaps between polls with nothing sent in between (a poll after an
  // update waited for the user, not for the interval).
  const gaps: number[] = [];
  let prev: TaskEvent | null = null;
  let pollIntervalMs: number | null = null;
  let final: TaskCardView['final'] = null;
  // A JSON-RPC error answers one request (a header refused, an undeclared extension, an
  // unknown task): the task did not fail by it. Its round shows it; the card counts it.
  const refused: TaskCardView['refused'] = [];
  for (const e of ledger.events) {
    if (e.kind === 'poll') {
      polls.push(e);
      if (prev?.kind === 'poll') gaps.push(e.sentAt - prev.sentAt);
    }
    prev = e;
    if (e.pollIntervalMs !== null) pollIntervalMs = e.pollIntervalMs;
    if (e.error !== null) refused.push({ exchange: e.exchange, method: METHOD[e.kind], code: e.error.code, message: e.error.message });
    if (e.status === null) continue;
    const last = timeline[timeline.length - 1];
    if (last !== undefined && last.status === e.status) last.reports++;
    else timeline.push({ status: e.status, at: e.answeredAt ?? e.sentAt, reports: 1, exchange: e.exchange });
    if (e.status === 'completed' || e.status === 'failed') final = finalOf(e, index);
  }
  const key = (k: { key: string; method: string; answeredIn: number | null }): TaskKeyView => ({ key: k.key, method: k.method, answeredIn: k.answeredIn });
  const outstanding = new Set(ledger.outstanding);
  return {
    taskId: c.task.taskId,
    status: c.task.status,
    created: c.task.created !== null,
    known: c.task.created !== null || ledger.events.some((e) => e.status !== null),
    timeline,
    polls: polls.length,
    folded: c.rounds.reduce((n, r) => n + (r.task?.polls?.length ?? 0), 0),
    pollIntervalMs,
    observedIntervalMs: median(gaps),
    updates: ledger.events.filter((e) => e.kind === 'update').length,
    cancelled: ledger.events.some((e) => e.kind === 'cancel'),
    outstanding: ledger.keys.filter((k) => outstanding.has(k.key)).map(key),
    answered: ledger.keys.filter((k) => k.answeredIn !== null).map(key),
    final,
    refused,
  };
}

/** A completed task's `result`, or a failed one's `error`, read from that poll's answer. */
function finalOf(e: TaskEvent, index: AnalysisIndex): TaskCardView['final'] {
  const answer = e.answer >= 0 ? index.bySeq.get(e.exchange)?.decoded.received[e.answer] : undefined;
  const f = taskFields(answer?.result);
  return e.status === 'completed' ? { kind: 'result', value: f.result ?? null } : { kind: 'error', value: f.error ?? null };
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : Math.round((s[m - 1] + s[m]) / 2);
}
