// web/lib/demo-tools.svelte.ts: which demo tools the toolbar's Call offers as a task. A tool
// the demo's tools/list says is task-only is known before anything is sent; one that did not
// say is learned from its first -32021 answer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TASK_SUPPORT_META, toolList } from '../../../worker/decode/tool-names.ts';
import { DemoTools } from '../../../web/lib/demo-tools.svelte.ts';

const listed = { jsonrpc: '2.0', id: 'x', result: { tools: [{ name: 'slow_report' }, { name: 'research_report', _meta: { [TASK_SUPPORT_META]: 'required' } }, { name: 'quiet_job' }] } };

function stubFetch(): string[] {
  const sent: string[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: { body: string }) => {
    sent.push(JSON.parse(init.body).method);
    return new Response(JSON.stringify(listed), { headers: { 'content-type': 'application/json' } });
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe('the demo tools the toolbar calls as a task', () => {
  it('lists the tools before the first Call of a non-default tool, and a declared task-only tool needs a task before any call', async () => {
    const sent = stubFetch();
    const tools = new DemoTools(async (body) => toolList(body));
    expect(tools.isTaskOnly('research_report')).toBe(false);
    expect(await tools.needsTask('research_report')).toBe(true);
    expect(sent).toEqual(['tools/list']);
    expect(tools.names).toEqual(['slow_report', 'research_report', 'quiet_job']);
    expect(await tools.needsTask('quiet_job')).toBe(false);
    expect(sent).toEqual(['tools/list']);
  });

  it('sends nothing before the default tool\'s Call, which answers at once', async () => {
    const sent = stubFetch();
    const tools = new DemoTools(async (body) => toolList(body));
    expect(await tools.needsTask('slow_report')).toBe(false);
    expect(sent).toEqual([]);
  });

  it('still learns a tool that did not say so from its -32021 answer', async () => {
    stubFetch();
    const tools = new DemoTools(async (body) => toolList(body));
    expect(await tools.needsTask('quiet_job')).toBe(false);
    tools.markTaskOnly('quiet_job');
    expect(await tools.needsTask('quiet_job')).toBe(true);
  });
});
