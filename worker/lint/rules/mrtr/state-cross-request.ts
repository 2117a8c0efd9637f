// requestState and inputResponses belong to the retry of the request they were issued for.
import type { Conversation, Round } from '../../../protocol.js';
import type { ConversationRule, LintContext } from '../../rule.js';
import { own } from '../../../decode/meta.js';
import { describe, roundLabel, sameCanonical, show } from '../support.js';

/**
 * mrtr:257. Threading joins a token echo to its chain only when method and name agree,
 * so a first round (link null) carrying a token that another conversation issued, or
 * carrying inputResponses whose keys match what another chain had just asked for, is a
 * request borrowing that chain's state. Same method, name and arguments is a replay of
 * the same call, not a cross-request use (state/replayed covers that).
 */
export const stateCrossRequest: ConversationRule = {
  id: 'mrtr/state-cross-request',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:257',
  title: "requestState or inputResponses of one chain used on another request",
  scope: 'conversation',
  check(c, ctx, report) {
    const first = c.rounds[0];
    if (!first || first.link !== null || first.task !== undefined) return;
    const req = ctx.request(first);
    if (first.stateSent !== null) {
      const args = own(req?.params, 'arguments') ?? {};
      for (const origin of ctx.issuedBy(first.stateSent)) {
        const o = origin.conversation;
        if (o.id === c.id) continue;
        if (o.method === c.method && o.name === c.name && sameCanonical(own(ctx.request(o.rounds[0])?.params, 'arguments') ?? {}, args)) continue;
        report({
          exchange: first.exchange,
          message: `${describe(req)} echoes the requestState issued in ${roundLabel(origin.round)} of ${target(o)} (conversation ${o.id}); a requestState may only ride on the retry of the request it was issued for`,
        });
        return;
      }
    }
    const keys = first.inputResponses ?? [];
    if (keys.length === 0) return;
    const borrowed = openChainAsking(ctx, c, first, keys);
    if (!borrowed) return;
    report({
      exchange: first.exchange,
      message: `${describe(req)} carries inputResponses ${keys.map(show).join(', ')} that answer what ${target(borrowed.c)} (conversation ${borrowed.c.id}) asked in ${roundLabel(borrowed.i)}; send them only on that request's retry`,
    });
  },
};

function target(c: Conversation): string {
  return c.name !== null ? `${c.method} ${show(c.name)}` : c.method;
}

/** Another chain of a different method/name whose latest answer before `first` was sent
 *  was an input_required asking for every one of `keys`. */
function openChainAsking(ctx: LintContext, c: Conversation, first: Round, keys: string[]): { c: Conversation; i: number } | null {
  for (const o of ctx.conversations) {
    if (o.id === c.id || (o.method === c.method && o.name === c.name)) continue;
    let last = -1;
    o.rounds.forEach((r, i) => {
      if (r.answeredAt !== null && r.answeredAt <= first.sentAt) last = i;
    });
    const r = o.rounds[last];
    if (!r || r.outcome !== 'input_required' || !r.inputRequests) continue;
    const asked = r.inputRequests;
    if (keys.every((k) => Object.prototype.hasOwnProperty.call(asked, k))) return { c: o, i: last };
  }
  return null;
}
