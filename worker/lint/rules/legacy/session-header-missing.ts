// Legacy: once a server issued a session id, every later request carries it.
import type { ExchangeRecord } from '../../../protocol.js';
import type { ExchangeRule, LintContext } from '../../rule.js';
import { header } from '../../../decode/headers.js';
import { MODERN } from '../support.js';

// Per context: endpoint (client + URL) → every `initialize` exchange, ascending, with the
// session id its response minted (or null). Built from the conversations, not from the
// order the engine happens to call check() in, so a partial re-lint sees the same thing.
const INITIALIZES = {};

function endpoint(record: ExchangeRecord): string {
  return `${record.client ?? ''} ${record.request.url}`;
}

function initializes(ctx: LintContext): Map<string, { seq: number; minted: boolean }[]> {
  return ctx.memo(INITIALIZES, () => build(ctx));
}

function build(ctx: LintContext): Map<string, { seq: number; minted: boolean }[]> {
  const map = new Map<string, { seq: number; minted: boolean }[]>();
  for (const c of ctx.conversations) {
    if (c.method !== 'initialize') continue;
    for (const r of c.rounds) {
      const record = ctx.record(r.exchange);
      const list = map.get(endpoint(record)) ?? [];
      list.push({ seq: r.exchange, minted: record.response ? header(record.response.headers, 'Mcp-Session-Id') !== undefined : false });
      map.set(endpoint(record), list);
    }
  }
  for (const list of map.values()) list.sort((a, b) => a.seq - b.seq);
  return map;
}

/** L-tx:206-208. The latest `initialize` before a request decides: after a 404 the client
 *  re-initializes without the header (L-tx:213-215), which starts over. */
export const legacySessionHeaderMissing: ExchangeRule = {
  id: 'legacy/session-header-missing',
  about: 'client',
  tier: 2,
  severity: 'error',
  clause: 'L-tx:206-208',
  title: 'after a session id was issued, a later request omits it',
  scope: 'exchange',
  transport: 'http',
  check(d, record, ctx, report) {
    if (d.era === MODERN || d.sent.some((m) => m.method === 'initialize')) return;
    if (header(record.request.headers, 'Mcp-Session-Id') !== undefined) return;
    const list = initializes(ctx).get(endpoint(record)) ?? [];
    let last: { seq: number; minted: boolean } | undefined;
    for (const i of list) if (i.seq < d.seq) last = i;
    if (!last?.minted) return;
    report({
      exchange: d.seq,
      message: `${record.request.method} without an Mcp-Session-Id header after the server issued a session id in exchange ${last.seq}; send the session id on every request until the session ends (or re-initialize after a 404)`,
    });
  },
};
