// A retry repeats the original request; a changed target or arguments is suspicious.
import type { ConversationRule } from '../../rule.js';
import { own, targetName } from '../../../decode/meta.js';
import { canonical, clip, mrtrRoundCount, roundLabel, sameCanonical, show } from '../support.js';

/**
 * mrtr:37, 215. Each retry is compared with the round before it (not with round 1), so a
 * change is reported once, where it happened. Absent arguments equal `{}`.
 */
export const retryChangedRequest: ConversationRule = {
  id: 'mrtr/retry-changed-request',
  about: 'client',
  tier: 1,
  severity: 'info',
  clause: 'mrtr:37, 215',
  title: 'retry changes the method, name/uri or arguments',
  scope: 'conversation',
  check(c, ctx, report) {
    for (let i = 1; i < mrtrRoundCount(c); i++) {
      const round = c.rounds[i];
      if (round.link === 'ambiguous') continue;
      const before = ctx.request(c.rounds[i - 1]);
      const now = ctx.request(round);
      if (!before || !now) continue;
      const changes: string[] = [];
      if (before.method !== now.method) changes.push(`method ${show(before.method ?? null)} → ${show(now.method ?? null)}`);
      else {
        const a = targetName(before.method, before.params);
        const b = targetName(now.method, now.params);
        if (a !== b) changes.push(`${now.method === 'resources/read' ? 'uri' : 'name'} ${show(a)} → ${show(b)}`);
      }
      const a = own(before.params, 'arguments') ?? {};
      const b = own(now.params, 'arguments') ?? {};
      if (!sameCanonical(a, b)) changes.push(`arguments ${clip(canonical(a))} → ${clip(canonical(b))}`);
      if (changes.length === 0) continue;
      report({
        exchange: round.exchange,
        message: `retry (id ${show(round.requestId)}) in ${roundLabel(i)} changed ${changes.join('; ')} compared with ${roundLabel(i - 1)}; a retry should repeat the original request with only inputResponses and requestState added`,
      });
    }
  },
};
