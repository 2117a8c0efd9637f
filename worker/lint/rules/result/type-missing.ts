// Every 2026 result says whether it is final or interim.
import type { ExchangeRule } from '../../rule.js';
import { own } from '../../../decode/meta.js';
import { describe, MODERN, requestFor } from '../support.js';

/** base:73, ts:229. Results received on a modern exchange (server results only: the
 *  client's own POSTed responses are mrtr/server-initiated-request's business). */
export const resultTypeMissing: ExchangeRule = {
  id: 'result/type-missing',
  tier: 1,
  severity: 'error',
  clause: 'base:73, ts:229',
  title: 'modern result lacks resultType',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    if (d.era !== MODERN) return;
    for (const m of d.received) {
      if (m.kind !== 'result' || own(m.result, 'resultType') !== undefined) continue;
      report({
        exchange: d.seq,
        message: `result for ${describe(requestFor(d, m))} has no resultType; 2026-07-28 servers must send resultType "complete" (or "input_required") on every result, empty ones included`,
      });
    }
  },
};
