// A request is answered with a JSON body or an event stream, nothing else.
import type { ExchangeRule } from '../../rule.js';
import { header, mediaType } from '../../../decode/headers.js';
import { isModernPost, requestsOf, show } from '../support.js';

/**
 * shttp:88-91. Only POSTs that carried a request and got a 2xx: a notification or
 * response POST answered 202 with no body has nothing to type, and error statuses often
 * come from intermediaries with their own bodies. An empty answer with no Content-Type
 * is left alone too (there is nothing to misread).
 */
export const httpContentType: ExchangeRule = {
  id: 'http/content-type',
  tier: 1,
  severity: 'error',
  clause: 'shttp:88-91',
  title: 'request answered with a content type other than JSON or an event stream',
  scope: 'exchange',
  transport: 'http',
  check(d, record, _ctx, report) {
    const res = record.response;
    if (!res || res.status < 200 || res.status > 299) return;
    if (!isModernPost(d, record.request.method) || requestsOf(d).length === 0) return;
    const raw = header(res.headers, 'Content-Type');
    const type = mediaType(raw);
    if (type === 'application/json' || type === 'text/event-stream') return;
    if (raw === undefined && d.responseEmpty) return;
    report({
      exchange: d.seq,
      message: `request was answered HTTP ${res.status} with ${raw === undefined ? 'no Content-Type' : `Content-Type ${show(raw)}`}; answer requests with application/json or text/event-stream`,
    });
  },
};
