// The token does not verify with the developer's configured key.
import type { ConversationRule } from '../../rule.js';
import { issuedTokens, roundLabel } from '../support.js';

/** mrtr:232-233. Only when keys were configured; the message never names the key. */
export const stateSignatureInvalid: ConversationRule = {
  id: 'state/signature-invalid',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:232-233',
  title: 'requestState fails verification with the configured key',
  scope: 'conversation',
  check(c, ctx, report) {
    if (!ctx.options.keysGiven) return;
    for (const { round, index: i, reading } of issuedTokens(c, ctx)) {
      if (reading.verified !== false) continue;
      const why = reading.verifyError ? ` (${reading.verifyError})` : '';
      report({
        exchange: round.exchange,
        message: `requestState (${reading.format}) issued in ${roundLabel(i)} does not verify with any configured key${why}; check that the server signs with the key you configured, or that the right key is configured for this server`,
      });
    }
  },
};
