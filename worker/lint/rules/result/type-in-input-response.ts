// InputResponse values are bare results: ElicitResult & co. do not extend Result.
import type { ExchangeRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { describe, requestsOf, show } from '../support.js';

/** ts:2210. Harmless, but a sign the client copied a whole Result envelope. */
export const resultTypeInInputResponse: ExchangeRule = {
  id: 'result/type-in-input-response',
  about: 'client',
  tier: 2,
  severity: 'info',
  clause: 'ts:2210',
  title: 'an inputResponses value carries resultType',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const req of requestsOf(d)) {
      const responses = asObject(own(req.params, 'inputResponses'));
      if (!responses) continue;
      const keys = Object.keys(responses).filter((k) => own(asObject(responses[k]), 'resultType') !== undefined);
      if (keys.length === 0) continue;
      report({
        exchange: d.seq,
        message: `${describe(req)} sent inputResponses ${keys.map(show).join(', ')} with a resultType; input responses are bare ElicitResult / CreateMessageResult / ListRootsResult values without one`,
      });
    }
  },
};
