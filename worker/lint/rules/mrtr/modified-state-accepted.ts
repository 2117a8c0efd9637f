// A server that answers a client-edited token with anything but an error never noticed the
// edit, so whatever the token carries can be forged. Needs no key: the capture shows the
// token the server issued and the one it got back.
import type { ConversationRule } from '../../rule.js';
import { describe, firstDiffByte, retryPairs, roundLabel } from '../support.js';

/**
 * mrtr:232-233, 254. A retry linked to the round that issued its parent's token (never an
 * ambiguous one). A token the server issued anywhere in the capture is skipped: the client
 * carried it over rather than edited it (mrtr/state-cross-request says so), and the server
 * may well have accepted its own valid state. Silence (no answer yet) is not acceptance.
 */
export const modifiedStateAccepted: ConversationRule = {
  id: 'mrtr/modified-state-accepted',
  tier: 1,
  severity: 'warning',
  clause: 'mrtr:232-233, 254',
  title: 'server accepted a requestState the client had changed',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { prev, prevIndex, round, index } of retryPairs(c)) {
      if (prev.stateIssued === null || round.stateSent === null || round.stateSent === prev.stateIssued) continue;
      if (round.outcome !== 'complete' && round.outcome !== 'input_required') continue;
      if (ctx.issuedBy(round.stateSent).length > 0) continue;
      report({
        exchange: round.exchange,
        message: `${describe(ctx.request(round))} in ${roundLabel(index)} sent a requestState that differs from the one issued in ${roundLabel(prevIndex)} (from byte ${firstDiffByte(prev.stateIssued, round.stateSent)}), and the server answered ${round.outcome} instead of an error: it did not detect the change, so state it relies on can be forged; protect the token (HMAC or AEAD) and reject what fails verification`,
      });
    }
  },
};
