// -32021 tells the client exactly which capability to declare, with HTTP 400: the base
// spec requires the status, so -32021 inside HTTP 200 is an error, not a style point.
import type { ExchangeRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { MODERN } from '../support.js';

/** base:387-392 (HTTP 400), ts:513-526 (the data shape). */
export const metaCapabilityErrorShape: ExchangeRule = {
  id: 'meta/capability-error-shape',
  tier: 2,
  severity: 'error',
  clause: 'base:387-392, ts:513-526',
  title: '-32021 error lacks data.requiredCapabilities or is not HTTP 400',
  scope: 'exchange',
  check(d, record, _ctx, report) {
    if (d.era !== MODERN) return;
    const status = record.response?.status;
    for (const m of d.received) {
      if (m.kind !== 'error' || m.error?.code !== -32021) continue;
      const problems: string[] = [];
      if (!asObject(own(asObject(m.error.data), 'requiredCapabilities'))) problems.push('has no object data.requiredCapabilities');
      // Over stdio there is no HTTP status to get wrong; the data still matters.
      if (status !== 400 && !record.stdio) problems.push(`came with HTTP ${status ?? 'no status'}`);
      if (problems.length === 0) continue;
      report({
        exchange: d.seq,
        message: `MissingRequiredClientCapability error (-32021) ${problems.join(' and ')}; the base spec requires HTTP 400; send it with HTTP 400 and data.requiredCapabilities naming what the request must declare`,
      });
    }
  },
};
