// A server must reject a request whose required headers are missing or disagree.
import type { ExchangeRule } from '../../rule.js';
import { headerProblems } from '../support-http.js';
import { describe } from '../support.js';

/** shttp:582-603: expected HTTP 400 with -32020, not a 2xx. Requests only. */
export const httpMismatchAccepted: ExchangeRule = {
  id: 'http/mismatch-accepted',
  tier: 1,
  severity: 'error',
  clause: 'shttp:582-603',
  title: 'server answered 2xx to a request with missing or mismatched required headers',
  scope: 'exchange',
  transport: 'http',
  check(d, record, _ctx, report) {
    const status = record.response?.status ?? 0;
    if (status < 200 || status > 299) return;
    const problems = headerProblems(d, record).filter((p) => p.message.kind === 'request');
    if (problems.length === 0) return;
    const list = problems.map((p) => `${p.header} ${p.what}`).join('; ');
    report({
      exchange: d.seq,
      message: `server answered HTTP ${status} to ${describe(problems[0].message)} although ${list}; servers must reject it with HTTP 400 and JSON-RPC error -32020`,
    });
  },
};
