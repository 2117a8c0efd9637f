// A very long chain is likely a server asking the same thing in a loop.
import type { ConversationRule } from '../../rule.js';
import { describe, mrtrRoundCount } from '../support.js';

/** mrtr:247. Reported once, at the first round past the configured limit. */
export const tooManyRounds: ConversationRule = {
  id: 'mrtr/too-many-rounds',
  tier: 1,
  severity: 'info',
  clause: 'mrtr:247',
  title: 'chain is longer than the configured round limit',
  scope: 'conversation',
  check(c, ctx, report) {
    const limit = ctx.options.maxRounds;
    const rounds = mrtrRoundCount(c);
    if (!(limit >= 1) || rounds <= limit) return;
    const over = c.rounds[limit];
    report({
      exchange: over.exchange,
      message: `${describe(ctx.request(c.rounds[0]))} took ${rounds} rounds, more than the limit of ${limit}; check that the server is not asking for the same input in a loop (the limit is set with maxRounds)`,
    });
  },
};
