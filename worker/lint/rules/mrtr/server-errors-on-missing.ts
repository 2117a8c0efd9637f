// When a retry lacks an answer, the server should ask again rather than fail.
import type { ConversationRule } from '../../rule.js';
import { describe, retryPairs, roundLabel, show } from '../support.js';
import { missingResponses } from '../support-input.js';

// Rejections that happen before the server looks at the inputs at all (header mismatch,
// unsupported version) are not "erroring on the missing answer"; they are left alone.
const TRANSPORT_CODES = new Set([-32020, -32022]);

/** mrtr:266-267: a retry missing a requested key answered with a JSON-RPC error. */
export const serverErrorsOnMissing: ConversationRule = {
  id: 'mrtr/server-errors-on-missing',
  tier: 1,
  severity: 'warning',
  clause: 'mrtr:266-267',
  title: 'server answers a retry that lacks a requested key with an error',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { prev, round, index } of retryPairs(c)) {
      const missing = missingResponses(prev, round);
      if (missing.length === 0) continue;
      const answer = ctx.answer(round);
      if (answer?.kind !== 'error' || TRANSPORT_CODES.has(answer.error?.code ?? 0)) continue;
      report({
        exchange: round.exchange,
        message: `retry ${describe(ctx.request(round))} in ${roundLabel(index)} lacked ${missing.map(show).join(', ')} and the server answered JSON-RPC error ${answer.error?.code ?? '?'}; servers should answer a new input_required asking for the missing input instead`,
      });
    }
  },
};
