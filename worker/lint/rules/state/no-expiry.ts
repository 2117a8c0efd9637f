// Readable state should say when it stops being valid.
import type { ConversationRule } from '../../rule.js';
import { issuedTokens, roundLabel } from '../support.js';

/** mrtr:236. Only decodable tokens: an opaque handle's lifetime lives on the server. */
export const stateNoExpiry: ConversationRule = {
  id: 'state/no-expiry',
  tier: 1,
  severity: 'warning',
  clause: 'mrtr:236',
  title: 'decodable requestState carries no expiry',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { round, index: i, reading } of issuedTokens(c, ctx)) {
      if (reading.payload === null || reading.payload === undefined || reading.expiresAt !== null) continue;
      report({
        exchange: round.exchange,
        message: `requestState (${reading.format}) issued in ${roundLabel(i)} has no expiry claim (exp, expiresAt, …); put a short expiry inside the protected payload and reject late state`,
      });
    }
  },
};
