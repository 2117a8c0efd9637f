// A conversation's status from its latest round of its own (a Console experiment that joined
// it never changes it: thread/experiments.ts), and for a task from the task's status.
import type { Conversation, ConversationStatus, ExchangeRecord } from '../protocol.js';
import { lastCallRound } from './experiments.js';

/** Each exchange's state by seq: a Map, or anything with its `get`. */
interface StatesBySeq { get(seq: number): ExchangeRecord['state'] | undefined }

/** `final`: the capture has ended, so what still waits is `abandoned`. A task ends with
 *  its terminal status (cancelled reads as abandoned: the client gave up); until then a
 *  complete answer (a poll, an update) leaves it in progress. */
export function statusOf(c: Conversation, final: boolean, states?: StatesBySeq): ConversationStatus {
  const last = c.rounds[lastCallRound(c.rounds)];
  if (c.task !== undefined) {
    const s = c.task.status;
    if (s === 'completed') return 'complete';
    if (s === 'failed') return 'error';
    if (s === 'cancelled') return 'abandoned';
    if (last.outcome === 'complete') return final ? 'abandoned' : 'in-progress';
  }
  switch (last.outcome) {
    case 'complete': return 'complete';
    case 'error': return 'error';
    case 'input_required': return final ? 'abandoned' : 'in-progress';
    case 'no-response': {
      const st = states?.get(last.exchange);
      if (st === 'pending' || st === 'streaming') return 'in-progress';
      return final || st === 'aborted' || st === 'failed' ? 'abandoned' : 'in-progress';
    }
  }
}
