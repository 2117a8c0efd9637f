// An embedded sampling request needs messages and a token budget.
import type { ExchangeRule } from '../../rule.js';
import { own } from '../../../decode/meta.js';
import { show } from '../support.js';
import { embeddedRequests } from '../support-input.js';

/** ts:2104-2135. */
export const samplingRequestShape: ExchangeRule = {
  id: 'sampling/request-shape',
  tier: 1,
  severity: 'error',
  clause: 'ts:2104-2135',
  title: 'embedded sampling request lacks messages or maxTokens',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const { key, params } of embeddedRequests(d, 'sampling/createMessage')) {
      const missing: string[] = [];
      if (!Array.isArray(own(params, 'messages'))) missing.push('a "messages" array');
      const max = own(params, 'maxTokens');
      if (typeof max !== 'number' || !Number.isFinite(max)) missing.push('a numeric "maxTokens"');
      if (missing.length === 0) continue;
      report({
        exchange: d.seq,
        message: `sampling inputRequests[${show(key)}] lacks ${missing.join(' and ')}; CreateMessageRequest params require messages and maxTokens`,
      });
    }
  },
};
