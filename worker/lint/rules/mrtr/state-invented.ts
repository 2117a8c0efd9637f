// A retry must not carry state the previous round never issued.
import type { ConversationRule } from '../../rule.js';
import { retryPairs, roundLabel, show } from '../support.js';

/** mrtr:255. About linked retries; an unknown token on a first round is not this rule. */
export const stateInvented: ConversationRule = {
  id: 'mrtr/state-invented',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:255',
  title: 'retry carries requestState although none was issued',
  scope: 'conversation',
  check(c, _ctx, report) {
    for (const { prev, prevIndex, round, index } of retryPairs(c)) {
      if (prev.stateIssued !== null || round.stateSent === null) continue;
      report({
        exchange: round.exchange,
        message: `retry (id ${show(round.requestId)}) sent requestState ${show(round.stateSent)} but the input_required answer in ${roundLabel(prevIndex)} issued none; omit requestState when the server did not send one`,
      });
    }
  },
};
