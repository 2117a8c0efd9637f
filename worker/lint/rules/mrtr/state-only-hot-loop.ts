// requestState-only rounds may be load shedding: retrying them instantly is allowed (the
// client MAY retry immediately) but defeats the point when the server meant to shed load.
import type { ConversationRule } from '../../rule.js';
import { retryPairs, roundLabel } from '../support.js';

// "No pause": the SDK client paces these rounds at 250 ms; under 100 ms is a hot loop.
const HOT_MS = 100;
// "Several": one instant retry is allowed (mrtr:252-253 says it MAY retry immediately).
const SEVERAL = 2;

/** mrtr:252-253, ts:579-580. An annotation, not a breach. Reported once per chain, at the retry that makes it "several". */
export const stateOnlyHotLoop: ConversationRule = {
  id: 'mrtr/state-only-hot-loop',
  about: 'client',
  tier: 2,
  severity: 'info',
  clause: 'mrtr:252-253, ts:579-580',
  title: 'client answers several requestState-only rounds with no pause',
  scope: 'conversation',
  check(c, _ctx, report) {
    let hot = 0;
    for (const { prev, round, index } of retryPairs(c)) {
      const stateOnly = prev.inputRequests === null || Object.keys(prev.inputRequests).length === 0;
      if (!stateOnly || prev.stateIssued === null || prev.answeredAt === null) continue;
      if (round.sentAt - prev.answeredAt >= HOT_MS) continue;
      if (++hot !== SEVERAL) continue;
      report({
        exchange: round.exchange,
        message: `by ${roundLabel(index)} the client had retried ${hot} requestState-only rounds less than ${HOT_MS} ms after each answer; allowed, but if the server meant these rounds as load shedding, back off (the SDK waits 250 ms) before retrying`,
      });
    }
  },
};
