// Tool names out of a tools/list answer (worker/decode/tool-names.ts), for the demo-tool menu.
import { describe, expect, it } from 'vitest';
import { TASK_SUPPORT_META, toolList, toolNames } from '../../../worker/decode/tool-names.js';

const result = { jsonrpc: '2.0', id: 'x', result: { tools: [{ name: 'busy', inputSchema: {} }, { name: 'slow_report' }, { title: 'nameless' }] } };

describe('tool names from a tools/list answer', () => {
  it('reads them from a JSON body, in order, skipping entries without a name', () => {
    expect(toolNames(JSON.stringify(result))).toEqual(['busy', 'slow_report']);
  });
  it('reads them from an event stream, past notifications', () => {
    const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    expect(toolNames(`event: message\ndata: ${note}\n\nevent: message\ndata: ${JSON.stringify(result)}\n\n`)).toEqual(['busy', 'slow_report']);
  });
  it('gives none for an error, a cut body or HTML', () => {
    expect(toolNames(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no' } }))).toEqual([]);
    expect(toolNames('{"jsonrpc":"2.0","result":{"tools":[')).toEqual([]);
    expect(toolNames('<html>nope</html>')).toEqual([]);
  });
  it('marks the tools that say they run only as a task, by the demo\'s _meta key or the 2025-11-25 execution field', () => {
    const tools = [
      { name: 'research_report', _meta: { [TASK_SUPPORT_META]: 'required' } },
      { name: 'old_job', execution: { taskSupport: 'required' } },
      { name: 'maybe', execution: { taskSupport: 'optional' }, _meta: { [TASK_SUPPORT_META]: 'optional' } },
      { name: 'plain' },
    ];
    expect(toolList(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } }))).toEqual([
      { name: 'research_report', taskOnly: true }, { name: 'old_job', taskOnly: true }, { name: 'maybe', taskOnly: false }, { name: 'plain', taskOnly: false },
    ]);
  });
});
