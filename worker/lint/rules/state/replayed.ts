// One token presented on several requests: fine only if the server does not need single use.
import type { ConversationRule, LintContext, Presentation } from '../../rule.js';
import { presentationPlace, show } from '../support.js';

// token → every round that echoed it, in send order; sorted once per context and token.
const SORTED = {};

function uses(ctx: LintContext, token: string): readonly Presentation[] {
  const memo = ctx.memo(SORTED, () => new Map<string, Presentation[]>());
  let list = memo.get(token);
  if (list === undefined) {
    list = ctx.presentations(token).slice().sort((a, b) => a.round.sentAt - b.round.sentAt || a.round.exchange - b.round.exchange);
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
      if (list[1]?.round !== round) continue;
      report({
        exchange: round.exchange,
        message: `request (id ${show(round.requestId)}) presented a requestState already presented in ${presentationPlace(list[0], c)}${list.length > 2 ? ` (${list.length} presentations in all)` : ''}; if a round must be consumed at most once, the server has to enforce single use itself`,
      });
    }
  },
};
