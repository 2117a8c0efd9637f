// A retry answers every key the previous round asked for.
import type { ConversationRule } from '../../rule.js';
import { retryPairs, roundLabel, show } from '../support.js';
import { lastCallRound } from '../../../thread/experiments.js';
import { missingResponses } from '../support-input.js';

/**
 * mrtr:251, ts:601-604. Error, except when the retry ends the chain: it is the last
 * round and the server answered it with something other than input_required (a complete
 * result or an error). Then omitting a key is how a client gives up on a request it
 * declined (sampling and roots have no decline shape), so it is a warning. A last round
 * with no answer yet has not ended anything and stays an error.
 */
export const responseMissing: ConversationRule = {
  id: 'mrtr/response-missing',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:251, ts:601-604',
  title: 'retry lacks an inputResponses entry for a requested key',
  scope: 'conversation',
  check(c, _ctx, report) {
    for (const { prev, prevIndex, round, index } of retryPairs(c)) {
      const missing = missingResponses(prev, round);
      if (missing.length === 0) continue;
      const ends = index === lastCallRound(c.rounds) && (round.outcome === 'complete' || round.outcome === 'error');
      const list = missing.map((k) => `${show(k)} (${prev.inputRequests?.[k] ?? '?'})`).join(', ');
      report({
        exchange: round.exchange,
        severity: ends ? 'warning' : 'error',
        message: ends
          ? `retry (id ${show(round.requestId)}) gave no inputResponses for ${list} asked in ${roundLabel(prevIndex)} and the chain then ended; if the client meant to decline, say so (elicitation: action "decline") so the server knows`
          : `retry (id ${show(round.requestId)}) lacks inputResponses for ${list} asked in ${roundLabel(prevIndex)}; clients must answer every key of inputRequests before retrying`,
      });
    }
  },
};
