// Legacy: a POSTed response or notification is acknowledged with 202 and nothing else.
import type { ExchangeRule } from '../../rule.js';
import { MODERN } from '../support.js';

/** L-tx:95-97. Only POSTs carrying no request at all. */
export const legacyResponseNot202: ExchangeRule = {
  id: 'legacy/response-not-202',
  tier: 2,
  severity: 'error',
  clause: 'L-tx:95-97',
  title: "a client's POSTed response or notification is not answered 202",
  scope: 'exchange',
  transport: 'http',
  check(d, record, _ctx, report) {
    if (d.era === MODERN || record.request.method.toUpperCase() !== 'POST' || !record.response) return;
    const kinds = d.sent.map((m) => m.kind);
    if (kinds.length === 0 || kinds.some((k) => k !== 'result' && k !== 'error' && k !== 'notification')) return;
    if (record.response.status === 202) return;
    const what = kinds.every((k) => k === 'notification') ? 'notification' : 'response';
    report({
      exchange: d.seq,
      message: `client POSTed a JSON-RPC ${what} and the server answered HTTP ${record.response.status}; a legacy server must answer 202 Accepted with no body`,
    });
  },
};
