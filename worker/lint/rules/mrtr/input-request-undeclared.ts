// The server may only ask for input the request itself declared it can give.
import type { ExchangeRule } from '../../rule.js';
import { asObject, own, requestMeta } from '../../../decode/meta.js';
import { describe, inputRequiredResults, MODERN, requestFor, show } from '../support.js';

/**
 * mrtr:246, elic:67-81, samp:52. Capabilities are read from the `_meta` of the request
 * this answer belongs to, never from earlier rounds (ts:96: servers must not infer them).
 * `elicitation: {}` means form only; a sampling request with tools needs `sampling.tools`.
 */
export const inputRequestUndeclared: ExchangeRule = {
  id: 'mrtr/input-request-undeclared',
  tier: 1,
  severity: 'error',
  clause: 'mrtr:246, elic:67-81, samp:52',
  title: 'input request of a kind or mode the request did not declare',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    if (d.era !== MODERN) return;
    for (const answer of inputRequiredResults(d)) {
      const req = requestFor(d, answer);
      if (!req) continue;
      const caps = requestMeta(req.params).clientCapabilities;
      const requests = asObject(own(answer.result, 'inputRequests'));
      if (!requests) continue;
      for (const key of Object.keys(requests)) {
        const embedded = asObject(requests[key]);
        const missing = missingCapability(own(embedded, 'method'), asObject(own(embedded, 'params')), caps);
        if (!missing) continue;
        report({
          exchange: d.seq,
          message: `inputRequests[${show(key)}] in the answer to ${describe(req)} needs ${missing}, which that request's clientCapabilities did not declare; answer -32021 with data.requiredCapabilities instead of asking`,
        });
      }
    }
  },
};

function missingCapability(method: unknown, params: Record<string, unknown> | undefined, caps: Record<string, unknown> | undefined): string | null {
  if (method === 'elicitation/create') {
    const elic = asObject(own(caps, 'elicitation'));
    if (!elic) return 'the "elicitation" capability';
    const form = own(elic, 'form') !== undefined;
    const url = own(elic, 'url') !== undefined;
    const mode = own(params, 'mode');
    if (mode === 'url') return url ? null : '"elicitation.url" (URL mode)';
    // Absent mode is form mode; `elicitation: {}` declares form only.
    if (mode === undefined || mode === 'form') return form || !url ? null : '"elicitation.form" (form mode; only url was declared)';
    return null;
  }
  if (method === 'sampling/createMessage') {
    const sampling = asObject(own(caps, 'sampling'));
    if (!sampling) return 'the "sampling" capability';
    const usesTools = own(params, 'tools') !== undefined || own(params, 'toolChoice') !== undefined;
    return usesTools && own(sampling, 'tools') === undefined ? '"sampling.tools" (the request carries tools/toolChoice)' : null;
  }
  if (method === 'roots/list') return asObject(own(caps, 'roots')) ? null : 'the "roots" capability';
  return null;
}
