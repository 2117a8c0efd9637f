// Legacy: once a server issued a session id, every later request carries it.
import type { ExchangeRecord } from '../../../protocol.js';
import type { ExchangeRule, LintContext } from '../../rule.js';
import { header } from '../../../decode/headers.js';
import { MODERN, show } from '../support.js';

// Sessions seen so far per context, keyed by endpoint URL + client. Hazard: this relies on
// the engine calling exchange rules in capture order (engine.ts iterates exchangeSeqs in
// order); an `initialize` starts over, since after a 404 the client must re-initialize
// without the header (L-tx:213-215).
const sessions = new WeakMap<LintContext, Map<string, string>>();

function endpoint(record: ExchangeRecord): string {
  return `${record.client ?? ''} ${record.request.url}`;
}

/** L-tx:206-208. */
export const legacySessionHeaderMissing: ExchangeRule = {
  id: 'legacy/session-header-missing',
  tier: 2,
  severity: 'error',
  clause: 'L-tx:206-208',
  title: 'after a session id was issued, a later request omits it',
  scope: 'exchange',
  check(d, record, ctx, report) {
    let map = sessions.get(ctx);
    if (!map) sessions.set(ctx, (map = new Map()));
    if (d.era === MODERN) return;
    const key = endpoint(record);
    const initialize = d.sent.some((m) => m.method === 'initialize');
    const issued = map.get(key);
    if (initialize) map.delete(key);
    else if (issued !== undefined && header(record.request.headers, 'Mcp-Session-Id') === undefined) {
      report({
        exchange: d.seq,
        message: `${record.request.method} without an Mcp-Session-Id header after the server issued session ${show(issued.slice(0, 12))}; send the session id on every request until the session ends`,
      });
    }
    const minted = record.response ? header(record.response.headers, 'Mcp-Session-Id') : undefined;
    if (minted !== undefined && initialize) map.set(key, minted);
  },
};
