// Only tools/call, prompts/get and resources/read may pause for input.
import type { ExchangeRule } from '../../rule.js';
import { MRTR_METHODS } from '../../../decode/meta.js';
import { describe, inputRequiredResults, requestFor } from '../support.js';

/** mrtr:192: input_required on any other method (server/discover, tools/list, …). */
export const inputRequiredMethod: ExchangeRule = {
  id: 'mrtr/input-required-method',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:192',
  title: 'input_required answers a method that may not return it',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const answer of inputRequiredResults(d)) {
      const req = requestFor(d, answer);
      if (!req || req.method === undefined || MRTR_METHODS.has(req.method)) continue;
      report({
        exchange: d.seq,
        message: `${describe(req)} was answered with resultType "input_required"; only tools/call, prompts/get and resources/read may ask for input, so answer ${req.method} with a complete result or an error`,
      });
    }
  },
};
