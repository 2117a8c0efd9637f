// inputRequests values must be one of the three embedded request kinds.
import type { ExchangeRule } from '../../rule.js';
import { asObject, INPUT_REQUEST_METHODS, own } from '../../../decode/meta.js';
import { describe, inputRequiredResults, requestFor, show } from '../support.js';

/** mrtr:229: each value is an ElicitRequest, CreateMessageRequest or ListRootsRequest. */
export const inputRequestKind: ExchangeRule = {
  id: 'mrtr/input-request-kind',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:229',
  title: 'inputRequests value is not elicitation, sampling or roots',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const answer of inputRequiredResults(d)) {
      const raw = own(answer.result, 'inputRequests');
      if (raw === undefined) continue;
      const where = () => `input_required answer to ${describe(requestFor(d, answer))}`;
      const requests = asObject(raw);
      if (!requests) {
        report({ exchange: d.seq, message: `${where()} has inputRequests ${show(raw)}; it must be an object mapping keys to {method, params} requests` });
        continue;
      }
      for (const key of Object.keys(requests)) {
        const value = requests[key];
        const method = own(asObject(value), 'method');
        if (typeof method === 'string' && INPUT_REQUEST_METHODS.has(method)) continue;
        const seen = !asObject(value) ? `value ${show(value)}` : typeof method === 'string' ? `method ${show(method)}` : 'no method';
        report({
          exchange: d.seq,
          message: `${where()}: inputRequests[${show(key)}] has ${seen}; expected method "elicitation/create", "sampling/createMessage" or "roots/list"`,
        });
      }
    }
  },
};
