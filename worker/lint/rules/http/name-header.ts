// The Mcp-Name request header must agree with the body (checks shared in support-http.ts).
import type { ExchangeRule } from '../../rule.js';
import { headerProblems } from '../support-http.js';
import { describe } from '../support.js';

/** shttp:291-297. */
export const httpNameHeader: ExchangeRule = {
  id: 'http/name-header',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'shttp:291-297',
  title: 'Mcp-Name is missing or differs from params.name / params.uri',
  scope: 'exchange',
  transport: 'http',
  check(d, record, _ctx, report) {
    for (const p of headerProblems(d, record)) {
      if (p.header !== 'Mcp-Name') continue;
      report({ exchange: d.seq, message: `Mcp-Name header ${p.what} on ${describe(p.message)}; send Mcp-Name equal to params.name (tools/call, prompts/get) or params.uri (resources/read) on every round, retries included, base64-encoded as =?base64?…?= when not plain ASCII` });
    }
  },
};
