// One requestState, two retries in flight at once: the server sees the same state twice.
import type { Round } from '../../../protocol.js';
import type { ConversationRule, LintContext } from '../../rule.js';
import { show } from '../support.js';

interface Use {
  round: Round;
  conversation: string;
  end: number;
}

// Index of token → every round that echoed it, built once per context: a per-conversation
// scan of every other conversation would be quadratic on 100k-exchange captures. Most
// tokens are echoed once, so a lone use is kept as itself, not in a list of one.
const cache = new WeakMap<LintContext, Map<string, Use | Use[]>>();

function uses(ctx: LintContext): Map<string, Use | Use[]> {
  let map = cache.get(ctx);
  if (map) return map;
  map = new Map();
  for (const c of ctx.conversations) {
    for (const round of c.rounds) {
      if (round.stateSent === null) continue;
      const end = round.answeredAt ?? ctx.record(round.exchange)?.endedAt ?? Infinity;
      const use: Use = { round, conversation: c.id, end };
      const seen = map.get(round.stateSent);
      if (seen === undefined) map.set(round.stateSent, use);
      else if (Array.isArray(seen)) seen.push(use);
      else map.set(round.stateSent, [seen, use]);
    }
  }
  cache.set(ctx, map);
  return map;
}

/** mrtr:257. Reported on the later of two overlapping requests, once per request. */
export const stateParallelReuse: ConversationRule = {
  id: 'mrtr/state-parallel-reuse',
  tier: 1,
  severity: 'warning',
  clause: 'mrtr:257',
  title: 'same requestState on two retries in flight at the same time',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const round of c.rounds) {
      if (round.stateSent === null) continue;
      const all = uses(ctx).get(round.stateSent);
      if (!Array.isArray(all)) continue; // echoed once: by this round
      const earlier = all.find((u) => u.round !== round
        && (u.round.sentAt < round.sentAt || (u.round.sentAt === round.sentAt && u.round.exchange < round.exchange))
        && u.end > round.sentAt);
      if (!earlier) continue;
      report({
        exchange: round.exchange,
        message: `request (id ${show(round.requestId)}, exchange ${round.exchange}) sent a requestState that request (id ${show(earlier.round.requestId)}, exchange ${earlier.round.exchange}) was still using in flight; retry each input_required answer once and wait for its answer before reusing its state`,
      });
    }
  },
};
