// resultType values are a closed set unless an extension the request declared adds one.
import type { ExchangeRule } from '../../rule.js';
import { asObject, own, requestMeta } from '../../../decode/meta.js';
import { describe, MODERN, requestFor, show } from '../support.js';

// Values defined by extensions, and the extension id a request must declare to get them.
const EXTENSION_TYPES: Readonly<Record<string, string>> = { task: 'io.modelcontextprotocol/tasks' };

/** base:83-84. */
export const resultTypeUnknown: ExchangeRule = {
  id: 'result/type-unknown',
  tier: 1,
  severity: 'error',
  clause: 'base:83-84',
  title: 'resultType is not complete, input_required or a declared extension type',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    if (d.era !== MODERN) return;
    for (const m of d.received) {
      if (m.kind !== 'result') continue;
      const type = own(m.result, 'resultType');
      if (type === undefined || type === 'complete' || type === 'input_required') continue;
      const req = requestFor(d, m);
      const ext = typeof type === 'string' && Object.prototype.hasOwnProperty.call(EXTENSION_TYPES, type) ? EXTENSION_TYPES[type] : undefined;
      if (ext !== undefined) {
        const declared = asObject(own(requestMeta(req?.params).clientCapabilities, 'extensions'));
        if (own(declared, ext) !== undefined) continue;
        report({
          exchange: d.seq,
          message: `result for ${describe(req)} has resultType ${show(type)}, which only the ${ext} extension defines, but that request did not declare it in clientCapabilities.extensions; clients must treat it as invalid`,
        });
        continue;
      }
      report({
        exchange: d.seq,
        message: `result for ${describe(req)} has resultType ${show(type)}; expected "complete" or "input_required" (clients must treat unknown values as invalid)`,
      });
    }
  },
};
