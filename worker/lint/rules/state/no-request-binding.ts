// State should name the request it belongs to, so it cannot be replayed on another.
import type { ConversationRule } from '../../rule.js';
import { issuedTokens, roundLabel } from '../support.js';

/** mrtr:237. The token reader sets requestBound from method/name/digest claims or an SDK
 *  bind tag; only decodable payloads are judged. */
export const stateNoRequestBinding: ConversationRule = {
  id: 'state/no-request-binding',
  tier: 1,
  severity: 'warning',
  clause: 'mrtr:237',
  title: 'decodable requestState names neither the method nor a request digest',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { round, index: i, reading } of issuedTokens(c, ctx)) {
      if (reading.payload === null || reading.payload === undefined || reading.requestBound) continue;
      report({
        exchange: round.exchange,
        message: `requestState (${reading.format}) issued in ${roundLabel(i)} for ${c.method} names neither the method nor a digest of the request's params; bind it to the originating request and reject it on any other`,
      });
    }
  },
};
