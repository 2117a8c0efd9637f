// The client must echo the server's requestState byte-for-byte.
import type { ConversationRule } from '../../rule.js';
import { firstDiffByte, retryPairs, roundLabel, show } from '../support.js';

/** mrtr:254. Only rounds linked to their chain (state or match), never ambiguous ones. */
export const stateModified: ConversationRule = {
  id: 'mrtr/state-modified',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:254',
  title: 'retry requestState differs from the one issued',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { prev, prevIndex, round, index } of retryPairs(c)) {
      if (prev.stateIssued === null || round.stateSent === null || round.stateSent === prev.stateIssued) continue;
      const at = firstDiffByte(prev.stateIssued, round.stateSent);
      report({
        exchange: round.exchange,
        message: `retry (id ${show(round.requestId)}) sent a requestState that differs from the one issued in ${roundLabel(prevIndex)} at byte ${at}; clients must echo it byte-for-byte`,
      });
    }
  },
};
