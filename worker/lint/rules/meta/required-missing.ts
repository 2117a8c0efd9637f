// Every modern request carries its protocol version and capabilities in _meta.
import type { ExchangeRule } from '../../rule.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, requestMeta } from '../../../decode/meta.js';
import { describe, MODERN, requestsOf } from '../support.js';

/** base:367-382. The server's expected answer is -32602 with HTTP 400. */
export const metaRequiredMissing: ExchangeRule = {
  id: 'meta/required-missing',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'base:367-382',
  title: 'modern request lacks _meta protocolVersion or clientCapabilities',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    if (d.era !== MODERN) return;
    for (const req of requestsOf(d)) {
      const meta = requestMeta(req.params);
      const missing: string[] = [];
      if (meta.protocolVersion === undefined) missing.push(META_PROTOCOL_VERSION);
      if (meta.clientCapabilities === undefined) missing.push(META_CLIENT_CAPABILITIES);
      if (missing.length === 0) continue;
      report({
        exchange: d.seq,
        message: `${describe(req)} has ${meta.present ? 'a _meta without' : 'no params._meta, so no'} ${missing.map((k) => `"${k}"`).join(' or ')}; every 2026-07-28 request must carry both (use {} for no capabilities)`,
      });
    }
  },
};
