// tasks/get, tasks/update and tasks/cancel results are ordinary results: resultType "complete".
import type { ExchangeRule } from '../../rule.js';
import { resultType } from '../../../decode/jsonrpc.js';
import { describe, show } from '../support.js';
import { taskRequests } from '../support-task.js';

/** tasks:338, 381, 410. The spec's own examples put "task" on tasks/get output (tasks:839-887),
 *  so that one value is a warning: servers copying the examples are misled, not careless. */
export const tasksResultType: ExchangeRule = {
  id: 'tasks/result-type',
  tier: 1,
  severity: 'error',
  clause: 'tasks:338, 381, 410, 839-887',
  title: 'a tasks/get, tasks/update or tasks/cancel result has a resultType other than complete',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const { request, answer } of taskRequests(d)) {
      if (answer?.kind !== 'result') continue;
      const type = resultType(answer);
      if (type === 'complete') continue;
      report({
        exchange: d.seq,
        severity: type === 'task' ? 'warning' : 'error',
        message: type === 'task'
          ? `the result of ${describe(request)} has resultType "task", as the extension's own examples show, but its normative text says ${request.method} results must be "complete"; send "complete"`
          : `the result of ${describe(request)} has resultType ${type === undefined ? 'missing' : show(type)}; ${request.method} results must have resultType "complete"`,
      });
    }
  },
};
