// State should name who it was issued to, so another user cannot present it.
import type { ConversationRule } from '../../rule.js';
import { issuedTokens, roundLabel } from '../support.js';

/** mrtr:235. A bare session id does not count: sessions are gone in 2026. */
export const stateNoPrincipalBinding: ConversationRule = {
  id: 'state/no-principal-binding',
  tier: 2,
  severity: 'warning',
  clause: 'mrtr:235',
  title: 'decodable requestState carries no principal',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { round, index: i, reading } of issuedTokens(c, ctx)) {
      if (reading.payload === null || reading.payload === undefined || reading.principalBound || reading.bindTag !== undefined) continue;
      report({
        exchange: round.exchange,
        message: `requestState (${reading.format}) issued in ${roundLabel(i)} names no principal (sub, user, …; a session id does not count); bind it to the authenticated principal and reject it for anyone else`,
      });
    }
  },
};
