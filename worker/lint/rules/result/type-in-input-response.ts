// InputResponse values are bare results: ElicitResult & co. do not extend Result.
import type { ExchangeRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { describe, entriesOf, requestsOf, show } from '../support.js';

/** ts:2210. Harmless, but a sign the client copied a whole Result envelope. */
export const resultTypeInInputResponse: ExchangeRule = {
  id: 'result/type-in-input-response',
  tier: 2,
  severity: 'info',
  clause: 'ts:2210',
  title: 'an inputResponses value carries resultType',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const req of requestsOf(d)) {
      const keys = entriesOf(own(req.params, 'inputResponses')).filter(([, v]) => own(asObject(v), 'resultType') !== undefined).map(([k]) => k);
      if (keys.length === 0) continue;
      report({
        exchange: d.seq,
        message: `${describe(req)} sent inputResponses ${keys.map(show).join(', ')} with a resultType; input responses are bare ElicitResult / CreateMessageResult / ListRootsResult values without one`,
      });
    }
  },
};
