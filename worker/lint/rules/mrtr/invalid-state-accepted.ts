// A server must reject state that fails verification with its own key.
import type { ConversationRule } from '../../rule.js';
import { describe, roundLabel } from '../support.js';

/** mrtr:232-233. Only with a configured key: without one, verification says nothing. */
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
      if (reading?.verified !== false) return;
      const answer = ctx.answer(round);
      if (!answer || answer.kind === 'error') return;
      const why = reading.verifyError ? ` (${reading.verifyError})` : '';
      report({
        exchange: round.exchange,
        message: `${describe(ctx.request(round))} in ${roundLabel(i)} echoed a requestState that fails verification with the configured key${why}, yet the server answered with a result; verify the MAC/signature and reject tampered or foreign state`,
      });
    });
  },
};
