// Each round is a new request and needs a new JSON-RPC id.
import type { ConversationRule } from '../../rule.js';
import { mrtrRoundCount, roundLabel, sameRpcId, show } from '../support.js';

/** mrtr:256, tools:234. Compared with every earlier round of the chain; ids compare by
 *  type and value ("1" and 1 differ). Ambiguous rounds are skipped (their chain is a guess). */
export const retryReusedId: ConversationRule = {
  id: 'mrtr/retry-reused-id',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:256, tools:234',
  title: 'retry reuses the JSON-RPC id of an earlier round',
  scope: 'conversation',
  check(c, _ctx, report) {
    for (let i = 1; i < mrtrRoundCount(c); i++) {
      const round = c.rounds[i];
      if (round.link === 'ambiguous' || round.requestId === null) continue;
      const earlier = c.rounds.slice(0, i).findIndex((r) => sameRpcId(r.requestId, round.requestId));
      if (earlier < 0) continue;
      report({
        exchange: round.exchange,
        message: `retry in ${roundLabel(i)} reuses JSON-RPC id ${show(round.requestId)} from ${roundLabel(earlier)}; each retry is a new request and must use a new id`,
      });
    }
  },
};
