// Clients should identify themselves on every modern request.
import type { ExchangeRule } from '../../rule.js';
import { META_CLIENT_INFO, requestMeta } from '../../../decode/meta.js';
import { describe, MODERN, requestsOf } from '../support.js';

/** base:384-385. */
export const metaClientInfoMissing: ExchangeRule = {
  id: 'meta/client-info-missing',
  about: 'client',
  tier: 1,
  severity: 'warning',
  clause: 'base:384-385',
  title: 'modern request lacks _meta clientInfo',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    if (d.era !== MODERN) return;
    for (const req of requestsOf(d)) {
      if (requestMeta(req.params).clientInfo !== undefined) continue;
      report({
        exchange: d.seq,
        message: `${describe(req)} has no _meta "${META_CLIENT_INFO}"; clients should send {name, version} on every request`,
      });
    }
  },
};
