// Clients must accept both answer forms: a JSON body or an event stream.
import type { ExchangeRule } from '../../rule.js';
import { header } from '../../../decode/headers.js';
import { isModernPost, show } from '../support.js';

// A capture sends the same Accept value on nearly every POST: remember the last verdict.
let lastRaw: string | undefined;
let lastMissing: readonly string[] = ['application/json', 'text/event-stream'];

function missingTypes(raw: string | undefined): readonly string[] {
  if (raw !== lastRaw) {
    const types = new Set((raw ?? '').split(',').map((t) => t.split(';')[0].trim().toLowerCase()));
    lastMissing = ['application/json', 'text/event-stream'].filter((t) => !types.has(t));
    lastRaw = raw;
  }
  return lastMissing;
}

/** shttp:76-77. Both types must be listed by name; a wildcard does not list them. */
export const httpAccept: ExchangeRule = {
  id: 'http/accept',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'shttp:76-77',
  title: 'POST Accept does not list application/json and text/event-stream',
  scope: 'exchange',
  transport: 'http',
  check(d, record, _ctx, report) {
    if (!isModernPost(d, record.request.method)) return;
    const raw = header(record.request.headers, 'Accept');
    const missing = missingTypes(raw);
    if (missing.length === 0) return;
    report({
      exchange: d.seq,
      message: `POST ${raw === undefined ? 'has no Accept header' : `has Accept: ${show(raw)}`}, which does not list ${missing.join(' or ')}; send "Accept: application/json, text/event-stream" on every POST`,
    });
  },
};
