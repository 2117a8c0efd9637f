// 2026 has no sessions: a modern server neither mints nor echoes Mcp-Session-Id.
import type { ExchangeRule } from '../../rule.js';
import { header } from '../../../decode/headers.js';
import { MODERN } from '../support.js';

/** shttp:685-687. Looks at the response only: what a client sends is ignored by design. */
export const httpSessionId: ExchangeRule = {
  id: 'http/session-id',
  tier: 2,
  severity: 'warning',
  clause: 'shttp:685-687',
  title: 'modern server mints or echoes Mcp-Session-Id',
  scope: 'exchange',
  transport: 'http',
  check(d, record, _ctx, report) {
    if (d.era !== MODERN || !record.response) return;
    if (header(record.response.headers, 'Mcp-Session-Id') === undefined) return;
    const echoed = header(record.request.headers, 'Mcp-Session-Id') !== undefined;
    report({
      exchange: d.seq,
      message: `server ${echoed ? 'echoed' : 'minted'} an Mcp-Session-Id header on a 2026-07-28 response; sessions were removed, so ignore the header and do not send one`,
    });
  },
};
