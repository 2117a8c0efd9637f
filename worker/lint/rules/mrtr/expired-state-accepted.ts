// A server should reject state whose own expiry had passed when the retry went out.
import type { ConversationRule } from '../../rule.js';
import { describe, roundLabel } from '../support.js';

// Readings share their expiry strings (tokens/claims.ts caches them): parse each once.
let lastIso = '';
let lastMs = NaN;
function epochOf(iso: string): number {
  if (iso !== lastIso) {
    lastMs = Date.parse(iso);
    lastIso = iso;
  }
  return lastMs;
}

/**
 * mrtr:236. Fires on any round that echoed a token (first rounds included: a token
 * presented out of its chain is still state the server accepted) when the answer was
 * not a JSON-RPC error. Expiry is "at or after exp", as JWT defines it.
 */
export const expiredStateAccepted: ConversationRule = {
  id: 'mrtr/expired-state-accepted',
  tier: 1,
  severity: 'warning',
  clause: 'mrtr:236',
  title: 'server accepted a requestState that had already expired',
  scope: 'conversation',
  check(c, ctx, report) {
    c.rounds.forEach((round, i) => {
      if (round.stateSent === null) return;
      const answer = ctx.answer(round);
      if (!answer || answer.kind === 'error') return;
      const exp = epochOf(ctx.token(round.stateSent)?.expiresAt ?? '');
      if (!Number.isFinite(exp) || round.sentAt < exp) return;
      const late = Math.round((round.sentAt - exp) / 1000);
      report({
        exchange: round.exchange,
        message: `${describe(ctx.request(round))} in ${roundLabel(i)} echoed a requestState that expired at ${new Date(exp).toISOString()}, ${late} s before it was sent, and the server answered ${answer.kind === 'result' ? 'with a result' : answer.kind}; verify the expiry and reject late state`,
      });
    });
  },
};
