// An InputRequiredResult must carry something to act on: input requests or a state to echo.
import type { ExchangeRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { describe, inputRequiredResults, requestFor } from '../support.js';

/** mrtr:245 / ts:575: at least one of inputRequests or requestState. An empty `{}` map or
 *  an empty-string state counts as absent: the client has nothing to answer or echo. */
export const inputRequiredEmpty: ExchangeRule = {
  id: 'mrtr/input-required-empty',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:245, ts:575',
  title: 'input_required result carries neither inputRequests nor requestState',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const answer of inputRequiredResults(d)) {
      const requests = asObject(own(answer.result, 'inputRequests'));
      const state = own(answer.result, 'requestState');
      const hasRequests = requests !== undefined && Object.keys(requests).length > 0;
      const hasState = typeof state === 'string' && state.length > 0;
      if (hasRequests || hasState) continue;
      const seen = requests ? 'an empty inputRequests map' : state === '' ? 'an empty requestState' : 'neither field';
      report({
        exchange: d.seq,
        message: `input_required answer to ${describe(requestFor(d, answer))} carries ${seen}; the server must include inputRequests or a requestState (or answer with resultType "complete")`,
      });
    }
  },
};
