// A very long chain is likely a server asking the same thing in a loop.
import type { ConversationRule } from '../../rule.js';
import { describe, mrtrRoundCount } from '../support.js';
import { callRounds } from '../../../thread/experiments.js';

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
    // The call's own rounds: the Console's forks, edits, re-sends and tamper tests that
    // joined it are experiments, not rounds the server made the client go through.
    const n = mrtrRoundCount(c);
    if (!(limit >= 1) || n <= limit) return; // the own rounds are no more than these
    const own = callRounds(c.rounds).own.filter((i) => i < n);
    const rounds = own.length;
    if (rounds <= limit) return;
    const over = c.rounds[own[limit]];
    report({
      exchange: over.exchange,
      message: `${describe(ctx.request(c.rounds[0]))} took ${rounds} rounds, more than the limit of ${limit}; check that the server is not asking for the same input in a loop (the limit is set with maxRounds)`,
    });
  },
};
