// Clients must accept both answer forms: a JSON body or an event stream.
import type { ExchangeRule } from '../../rule.js';
import { header } from '../../../decode/headers.js';
import { isModernPost, show } from '../support.js';

/** shttp:76-77. Both types must be listed by name; a wildcard does not list them. */
export const httpAccept: ExchangeRule = {
  id: 'http/accept',
  tier: 1,
  severity: 'error',
  clause: 'shttp:76-77',
  title: 'POST Accept does not list application/json and text/event-stream',
  scope: 'exchange',
  check(d, record, _ctx, report) {
    if (!isModernPost(d, record.request.method)) return;
    const raw = header(record.request.headers, 'Accept');
    const types = new Set((raw ?? '').split(',').map((t) => t.split(';')[0].trim().toLowerCase()));
    const missing = ['application/json', 'text/event-stream'].filter((t) => !types.has(t));
    if (missing.length === 0) return;
    report({
      exchange: d.seq,
      message: `POST ${raw === undefined ? 'has no Accept header' : `has Accept: ${show(raw)}`}, which does not list ${missing.join(' or ')}; send "Accept: application/json, text/event-stream" on every POST`,
    });
  },
};
