// 2026 has no server-to-client requests and no client-POSTed responses.
import type { ExchangeRule } from '../../rule.js';
import { MODERN, show } from '../support.js';

/** mrtr:10-13, shttp:80-81: the legacy push pattern seen on modern traffic. */
export const serverInitiatedRequest: ExchangeRule = {
  id: 'mrtr/server-initiated-request',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:10-13, shttp:80-81',
  title: 'server sends a JSON-RPC request, or the client POSTs a response, in the 2026 era',
  scope: 'exchange',
  check(d, record, _ctx, report) {
    if (d.era !== MODERN) return;
    // Stdio has no streams or POSTs: the server writes lines to stdout, the client to stdin.
    const stdio = record.stdio !== undefined;
    for (const m of d.received) {
      if (m.kind !== 'request') continue;
      report({
        exchange: d.seq,
        message: `server sent a JSON-RPC request ${m.method ?? '?'} (id ${show(m.id ?? null)}) ${stdio ? 'on its stdout' : `on the ${m.stream} stream`}; in 2026-07-28 servers must not initiate requests: return an input_required result with inputRequests instead`,
      });
    }
    for (const m of d.sent) {
      if (m.kind !== 'result' && m.kind !== 'error') continue;
      report({
        exchange: d.seq,
        message: `client ${stdio ? 'wrote' : 'POSTed'} a JSON-RPC ${m.kind === 'error' ? 'error response' : 'response'} (id ${show(m.id ?? null)}); in 2026-07-28 clients answer input requests by retrying the original request with inputResponses`,
      });
    }
  },
};
