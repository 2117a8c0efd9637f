// A retry must echo the state the previous round issued.
import type { ConversationRule } from '../../rule.js';
import { retryPairs, roundLabel, show } from '../support.js';

/** mrtr:254. */
export const stateDropped: ConversationRule = {
  id: 'mrtr/state-dropped',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:254',
  title: 'retry omits the requestState the previous round issued',
  scope: 'conversation',
  check(c, _ctx, report) {
    for (const { prev, prevIndex, round, index } of retryPairs(c)) {
      if (prev.stateIssued === null || round.stateSent !== null) continue;
      report({
        exchange: round.exchange,
        message: `retry (id ${show(round.requestId)}) carries no requestState, but ${roundLabel(prevIndex)} issued one; clients must echo the exact requestState on the retry`,
      });
    }
  },
};
