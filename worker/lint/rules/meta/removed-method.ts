// Methods the 2026 revision removed have no meaning on modern traffic.
import type { ExchangeRule } from '../../rule.js';
import { MODERN } from '../support.js';

const REMOVED = new Set([
  'initialize', 'notifications/initialized', 'ping', 'logging/setLevel', 'resources/subscribe',
  'resources/unsubscribe', 'notifications/roots/list_changed', 'notifications/elicitation/complete',
  'tasks/result', 'tasks/list',
]);

/** cl:14-22. Requests and notifications in either direction. */
export const metaRemovedMethod: ExchangeRule = {
  id: 'meta/removed-method',
  about: 'client',
  tier: 2,
  severity: 'warning',
  clause: 'cl:14-22',
  title: 'modern traffic uses a method 2026 removed',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    if (d.era !== MODERN) return;
    for (const list of [d.sent, d.received]) for (const m of list) {
      if ((m.kind !== 'request' && m.kind !== 'notification') || m.method === undefined || !REMOVED.has(m.method)) continue;
      const who = m.direction === 'client-to-server' ? 'client' : 'server';
      report({
        exchange: d.seq,
        message: `${who} sent ${m.method} on 2026-07-28 traffic, which removed it (no initialize handshake, ping, logging/setLevel, subscribe or list_changed for roots); use per-request _meta, server/discover or subscriptions/listen instead`,
      });
    }
  },
};
