// Pre-renumbering or removed error codes on modern traffic.
import type { ExchangeRule } from '../../rule.js';
import { MODERN } from '../support.js';

const REPLACED: Readonly<Record<number, string>> = {
  [-32001]: 'HeaderMismatch is now -32020',
  [-32003]: 'MissingRequiredClientCapability is now -32021',
  [-32004]: 'UnsupportedProtocolVersion is now -32022',
  [-32002]: 'resource not found is now -32602',
  [-32042]: 'URL elicitation required is gone: return input_required with a URL-mode elicitation',
};

/** cl:61-67, base:137-144. */
export const metaLegacyErrorCode: ExchangeRule = {
  id: 'meta/legacy-error-code',
  tier: 2,
  severity: 'warning',
  clause: 'cl:61-67, base:137-144',
  title: 'modern traffic uses a renumbered or removed error code',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    if (d.era !== MODERN) return;
    for (const m of d.received) {
      const code = m.error?.code;
      if (m.kind !== 'error' || code === undefined || !Object.prototype.hasOwnProperty.call(REPLACED, code)) continue;
      report({ exchange: d.seq, message: `server answered with error code ${code} on 2026-07-28 traffic; ${REPLACED[code]}` });
    }
  },
};
