// Helpers shared by the tasks/* rules. Not a rule: rules/index.ts never lists it.
import type { Conversation, DecodedExchange, RpcMessage } from '../../protocol.js';
import type { LintContext } from '../rule.js';
import { taskLedger, type TaskLedger } from '../../thread/task-ledger.js';
import { TASK_METHODS } from '../../decode/task.js';
import { findAnswer } from '../../thread/round.js';

// Seven rules ask in turn for the same conversation's ledger: remember the last one, kept
// by the context (as support.ts does for issued tokens).
const LEDGER = {};

/** The task ledger of a conversation (thread/task-ledger.ts). */
export function ledgerOf(c: Conversation, ctx: LintContext): TaskLedger {
  const last = ctx.memo(LEDGER, (): { of: Conversation | null; ledger: TaskLedger | null } => ({ of: null, ledger: null }));
  if (last.of !== c || last.ledger === null) {
    last.ledger = taskLedger(c, (seq, side, i) => ctx.decoded(seq)[side][i]);
    last.of = c;
  }
  return last.ledger;
}

/** tasks/get, tasks/update and tasks/cancel requests of an exchange, with their answers. */
export function taskRequests(d: DecodedExchange): { request: RpcMessage; answer: RpcMessage | undefined }[] {
  const out: { request: RpcMessage; answer: RpcMessage | undefined }[] = [];
  for (const m of d.sent) {
    if (m.kind !== 'request' || m.method === undefined || !TASK_METHODS.has(m.method)) continue;
    const i = findAnswer(d, m);
    out.push({ request: m, answer: i >= 0 ? d.received[i] : undefined });
  }
  return out;
}
