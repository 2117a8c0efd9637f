// One token presented on several requests: fine only if the server does not need single use.
import type { Round } from '../../../protocol.js';
import type { ConversationRule, LintContext } from '../../rule.js';
import { show } from '../support.js';

// token → every round that echoed it, in send order; built once per context (see
// mrtr/state-parallel-reuse for why a per-conversation scan would be quadratic, and why a
// lone round is kept as itself).
const cache = new WeakMap<LintContext, Map<string, Round | Round[]>>();

function uses(ctx: LintContext): Map<string, Round | Round[]> {
  let map = cache.get(ctx);
  if (map) return map;
  map = new Map();
  for (const c of ctx.conversations) for (const r of c.rounds) {
    if (r.stateSent === null) continue;
    const seen = map.get(r.stateSent);
    if (seen === undefined) map.set(r.stateSent, r);
    else if (Array.isArray(seen)) seen.push(r);
    else map.set(r.stateSent, [seen, r]);
  }
  for (const list of map.values()) if (Array.isArray(list)) list.sort((a, b) => a.sentAt - b.sentAt || a.exchange - b.exchange);
  cache.set(ctx, map);
  return map;
}

/** mrtr:238-243. Once per token, at its second presentation. */
export const stateReplayed: ConversationRule = {
  id: 'state/replayed',
  tier: 2,
  severity: 'info',
  clause: 'mrtr:238-243',
  title: 'the same requestState was presented on more than one request',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const round of c.rounds) {
      if (round.stateSent === null) continue;
      const list = uses(ctx).get(round.stateSent);
      if (!Array.isArray(list) || list[1] !== round) continue;
      report({
        exchange: round.exchange,
        message: `request (id ${show(round.requestId)}) presented a requestState already presented by exchange ${list[0].exchange}${list.length > 2 ? ` (${list.length} presentations in all)` : ''}; if a round must be consumed at most once, the server has to enforce single use itself`,
      });
    }
  },
};
