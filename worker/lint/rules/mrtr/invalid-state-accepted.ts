// A server must reject state that fails verification with its own key.
import type { ConversationRule } from '../../rule.js';
import { describe, roundLabel } from '../support.js';

/**
 * mrtr:232-233. Only with a configured key: without one, verification says nothing. A
 * token byte-identical to one the server itself issued in this capture is skipped: if
 * that fails verification the configured key is wrong for this server, which
 * state/signature-invalid already reports where the token was issued. What is left is
 * state the server never issued (tampered, forged, or from elsewhere) that it accepted.
 */
export const invalidStateAccepted: ConversationRule = {
  id: 'mrtr/invalid-state-accepted',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:232-233',
  title: 'server accepted a requestState that fails verification',
  scope: 'conversation',
  check(c, ctx, report) {
    if (!ctx.options.keysGiven) return;
    c.rounds.forEach((round, i) => {
      if (round.stateSent === null) return;
      const reading = ctx.token(round.stateSent);
      if (reading?.verified !== false || ctx.issuedBy(round.stateSent).length > 0) return;
      const answer = ctx.answer(round);
      if (!answer || answer.kind === 'error') return;
      const why = reading.verifyError ? ` (${reading.verifyError})` : '';
      report({
        exchange: round.exchange,
        message: `${describe(ctx.request(round))} in ${roundLabel(i)} sent a requestState the server never issued and that fails verification with the configured key${why}, yet the server answered with a result; verify the MAC/signature and reject tampered or foreign state`,
      });
    });
  },
};
