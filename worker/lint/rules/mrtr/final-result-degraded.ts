// The final result of a multi-round tool call should still honour the tool's outputSchema.
import type { ConversationRule } from '../../rule.js';
import { own } from '../../../decode/meta.js';
import { roundLabel, show } from '../support.js';

/** Tools spec (structuredContent with outputSchema). Only chains of two or more rounds
 *  of tools/call, with the tool's definition seen in an earlier tools/list. */
export const finalResultDegraded: ConversationRule = {
  id: 'mrtr/final-result-degraded',
  tier: 2,
  severity: 'warning',
  clause: 'spec tools; seed row on flattened results',
  title: 'final MRTR result lacks structuredContent though the tool declares an outputSchema',
  scope: 'conversation',
  check(c, ctx, report) {
    if (c.method !== 'tools/call' || c.name === null || c.rounds.length < 2 || c.task !== undefined) return;
    const i = c.rounds.length - 1;
    const last = c.rounds[i];
    const answer = ctx.answer(last);
    if (last.outcome !== 'complete' || answer?.kind !== 'result' || own(answer.result, 'isError') === true) return;
    if (own(answer.result, 'structuredContent') !== undefined) return;
    const tool = ctx.toolDefinition(c.name, c.rounds[0].exchange);
    if (own(tool, 'outputSchema') === undefined) return;
    report({
      exchange: last.exchange,
      message: `final result of tool ${show(c.name)} after ${c.rounds.length} rounds (${roundLabel(i)}) has no structuredContent, though tools/list declared an outputSchema for it; return structuredContent on the final round too`,
    });
  },
};
