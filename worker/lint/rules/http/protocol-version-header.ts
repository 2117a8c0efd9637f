// The MCP-Protocol-Version request header must agree with the body (checks shared in support-http.ts).
import type { ExchangeRule } from '../../rule.js';
import { headerProblems } from '../support-http.js';
import { describe } from '../support.js';

/** shttp:252-261. */
export const httpProtocolVersionHeader: ExchangeRule = {
  id: 'http/protocol-version-header',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'shttp:252-261',
  title: 'MCP-Protocol-Version is missing or differs from _meta protocolVersion',
  scope: 'exchange',
  transport: 'http',
  check(d, record, _ctx, report) {
    for (const p of headerProblems(d, record)) {
      if (p.header !== 'MCP-Protocol-Version') continue;
      report({ exchange: d.seq, message: `MCP-Protocol-Version header ${p.what} on ${describe(p.message)}; send MCP-Protocol-Version equal to _meta "io.modelcontextprotocol/protocolVersion"` });
    }
  },
};
