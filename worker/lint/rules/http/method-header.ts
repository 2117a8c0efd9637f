// The Mcp-Method request header must agree with the body (checks shared in support-http.ts).
import type { ExchangeRule } from '../../rule.js';
import { headerProblems } from '../support-http.js';
import { describe } from '../support.js';

/** shttp:288-293. */
export const httpMethodHeader: ExchangeRule = {
  id: 'http/method-header',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'shttp:288-293',
  title: "Mcp-Method is missing or differs from the body's method",
  scope: 'exchange',
  transport: 'http',
  check(d, record, _ctx, report) {
    for (const p of headerProblems(d, record)) {
      if (p.header !== 'Mcp-Method') continue;
      report({ exchange: d.seq, message: `Mcp-Method header ${p.what} on ${describe(p.message)}; send Mcp-Method equal to the JSON-RPC method` });
    }
  },
};
