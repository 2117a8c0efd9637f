// One requestState, two retries in flight at once: the server sees the same state twice.
import type { Conversation, Round } from '../../../protocol.js';
import type { ConversationRule, LintContext } from '../../rule.js';
import { presentationPlace, roundLabel, show } from '../support.js';

interface Use {
  round: Round;
  conversation: Conversation;
  end: number;
}

// Each token's presentations with the time each stopped being in flight, built once per
// context: a per-conversation scan of every other conversation would be quadratic.
const USES = {};

function usesOf(ctx: LintContext, token: string): readonly Use[] {
  const memo = ctx.memo(USES, () => new Map<string, Use[]>());
  let list = memo.get(token);
  if (list === undefined) {
    list = ctx.presentations(token).map(({ round, conversation }) => ({ round, conversation, end: round.answeredAt ?? ctx.record(round.exchange)?.endedAt ?? Infinity }));
    memo.set(token, list);
  }
  return list;
}

/** mrtr:257. Reported on the later of two overlapping requests, once per request. */
export const stateParallelReuse: ConversationRule = {
  id: 'mrtr/state-parallel-reuse',
  about: 'client',
  tier: 1,
  severity: 'warning',
  clause: 'mrtr:257',
  title: 'same requestState on two retries in flight at the same time',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const round of c.rounds) {
      if (round.stateSent === null) continue;
      if (ctx.presentations(round.stateSent).length < 2) continue; // echoed once: by this round
      const all = usesOf(ctx, round.stateSent);
      const earlier = all.find((u) => u.round !== round
        && (u.round.sentAt < round.sentAt || (u.round.sentAt === round.sentAt && u.round.exchange < round.exchange))
        && u.end > round.sentAt);
      if (!earlier) continue;
      report({
        exchange: round.exchange,
        message: `request (id ${show(round.requestId)}) in ${roundLabel(c.rounds.indexOf(round))} sent a requestState that request (id ${show(earlier.round.requestId)}) in ${presentationPlace(earlier, c)} was still using in flight; retry each input_required answer once and wait for its answer before reusing its state`,
      });
    }
  },
};
