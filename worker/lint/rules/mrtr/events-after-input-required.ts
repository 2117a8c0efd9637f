// An input_required result ends its request; nothing may follow it on that stream.
import type { ExchangeRule } from '../../rule.js';
import { own } from '../../../decode/meta.js';
import { describe, requestFor } from '../support.js';

/** sep2322:817, shttp:125. Only event streams: a JSON body holds one message anyway. */
export const eventsAfterInputRequired: ExchangeRule = {
  id: 'mrtr/events-after-input-required',
  tier: 2,
  severity: 'warning',
  clause: 'sep2322:817, shttp:125',
  title: 'SSE stream carries messages after its input_required result',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    const at = d.received.findIndex((m) => m.stream !== 'post-json' && m.kind === 'result' && own(m.result, 'resultType') === 'input_required');
    if (at < 0) return;
    const after = d.received.slice(at + 1).filter((m) => m.stream === d.received[at].stream);
    if (after.length === 0) return;
    const first = after[0];
    report({
      exchange: d.seq,
      message: `the event stream answering ${describe(requestFor(d, d.received[at]))} carried ${after.length} message(s) after its input_required result (first: ${first.method ?? first.kind}); the input_required result must be the last message, so end the stream after it`,
    });
  },
};
