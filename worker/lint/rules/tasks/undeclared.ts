// A task may be created only for a request that declared the extension itself.
import type { ExchangeRule } from '../../rule.js';
import { requestMeta } from '../../../decode/meta.js';
import { resultType } from '../../../decode/jsonrpc.js';
import { declaresTasks } from '../../../decode/task.js';
import { describe, requestFor } from '../support.js';

/** tasks:59-61. */
export const tasksUndeclared: ExchangeRule = {
  id: 'tasks/undeclared',
  tier: 1,
  severity: 'error',
  clause: 'tasks:59-61',
  title: 'CreateTaskResult answers a request that did not declare the tasks extension',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const m of d.received) {
      if (m.kind !== 'result' || resultType(m) !== 'task') continue;
      const req = requestFor(d, m);
      if (req === undefined || declaresTasks(requestMeta(req.params).clientCapabilities)) continue;
      report({
        exchange: d.seq,
        message: `${describe(req)} was answered with a task (resultType "task") though its own clientCapabilities do not declare extensions["io.modelcontextprotocol/tasks"]; a server must not create a task for such a request (run it synchronously, or answer -32021 naming the extension)`,
      });
    }
  },
};
