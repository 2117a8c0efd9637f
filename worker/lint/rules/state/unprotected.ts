// Readable state with no integrity protection can be edited by any client.
import type { ConversationRule } from '../../rule.js';
import { issuedTokens, roundLabel } from '../support.js';

/** mrtr:232-233. Once per distinct token, at the answer that first issued it. Legal only
 *  when tampering can do nothing worse than fail the request, hence a warning. */
export const stateUnprotected: ConversationRule = {
  id: 'state/unprotected',
  tier: 1,
  severity: 'warning',
  clause: 'mrtr:232-233',
  title: 'requestState is readable and carries no MAC, signature or AEAD tag',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { round, index: i, reading } of issuedTokens(c, ctx)) {
      if (reading.protected || reading.payload === null || reading.payload === undefined) continue;
      report({
        exchange: round.exchange,
        message: `requestState issued in ${roundLabel(i)} is ${reading.format} that anyone can read and edit, with no MAC, signature or AEAD tag; if it influences authorization, resource access or business logic, protect it (e.g. HMAC or AEAD) and reject state that fails verification`,
      });
    }
  },
};
