// Extra inputResponses keys are ignored by servers, but usually mean a client bug.
import type { ConversationRule } from '../../rule.js';
import { retryPairs, roundLabel, show } from '../support.js';

/** mrtr:264. */
export const responseUnrequested: ConversationRule = {
  id: 'mrtr/response-unrequested',
  about: 'client',
  tier: 1,
  severity: 'info',
  clause: 'mrtr:264',
  title: 'inputResponses has keys the previous round never asked for',
  scope: 'conversation',
  check(c, _ctx, report) {
    for (const { prev, prevIndex, round, index } of retryPairs(c)) {
      const asked = prev.inputRequests ?? {};
      const extra = (round.inputResponses ?? []).filter((k) => !Object.prototype.hasOwnProperty.call(asked, k));
      if (extra.length === 0) continue;
      const askedKeys = Object.keys(asked);
      report({
        exchange: round.exchange,
        message: `retry (id ${show(round.requestId)}) sent inputResponses ${extra.map(show).join(', ')} that ${roundLabel(prevIndex)} never asked for (it asked for ${askedKeys.length > 0 ? askedKeys.map(show).join(', ') : 'nothing'}); servers ignore them, so check the client's key bookkeeping`,
      });
    }
  },
};
