// One token presented on several requests: fine only if the server does not need single use.
import type { Round } from '../../../protocol.js';
import type { ConversationRule, LintContext } from '../../rule.js';
import { show } from '../support.js';

// token → every round that echoed it, in send order; sorted once per context and token.
const SORTED = {};

function uses(ctx: LintContext, token: string): readonly Round[] {
  const memo = ctx.memo(SORTED, () => new Map<string, Round[]>());
  let list = memo.get(token);
  if (list === undefined) {
    list = ctx.presentations(token).map((p) => p.round).sort((a, b) => a.sentAt - b.sentAt || a.exchange - b.exchange);
    memo.set(token, list);
  }
  return list;
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
      if (ctx.presentations(round.stateSent).length < 2) continue;
      const list = uses(ctx, round.stateSent);
      if (list[1] !== round) continue;
      report({
        exchange: round.exchange,
        message: `request (id ${show(round.requestId)}) presented a requestState already presented by exchange ${list[0].exchange}${list.length > 2 ? ` (${list.length} presentations in all)` : ''}; if a round must be consumed at most once, the server has to enforce single use itself`,
      });
    }
  },
};
