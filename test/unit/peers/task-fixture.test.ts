import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Har, HarEntry } from '../../peers/har-types.js';

// Sanity checks on the recorded ext-tasks session, with nothing but JSON.parse: it must be
// what its manifest claims before the analysis is tested against it.
const dir = fileURLToPath(new URL('../../fixtures/tasks/', import.meta.url));
const har = JSON.parse(readFileSync(`${dir}ext-tasks.har`, 'utf8')) as Har;
const manifest = JSON.parse(readFileSync(`${dir}manifest.json`, 'utf8')) as {
  fixtures: { 'ext-tasks.har': { entryCount: number; calls: { exchanges: number[]; task: { taskId: string; finalStatus: string; keys: string[]; steps: string[] } }[]; other: { seq: number }[] } };
};
const m = manifest.fixtures['ext-tasks.har'];
type Rpc = { method?: string; params?: Record<string, any>; result?: Record<string, any> };
const req = (e: HarEntry) => JSON.parse(e.request.postData?.text ?? '{}') as Rpc;
const res = (e: HarEntry) => JSON.parse(e.response.content.text ?? '{}') as Rpc;
const header = (e: HarEntry, name: string) => e.request.headers.find((h) => h.name.toLowerCase() === name)?.value;

describe('recorded ext-tasks fixture', () => {
  it('has the manifest\'s entries, each in exactly one place, all through the relay', () => {
    expect(har.log.entries).toHaveLength(m.entryCount);
    const seqs = [...m.calls.flatMap((c) => c.exchanges), ...m.other.map((o) => o.seq)].sort((a, b) => a - b);
    expect(seqs).toEqual(har.log.entries.map((_, i) => i));
    for (const e of har.log.entries) expect(new URL(e.request.url).pathname).toMatch(/^\/relay\/[^/]+\/demo$/);
  });

  it('declares the extension on every task request, names the taskId in Mcp-Name, and ends as the manifest says', () => {
    const { exchanges, task } = m.calls[0];
    const entries = exchanges.map((i) => har.log.entries[i]);
    expect(res(entries[0]).result).toMatchObject({ resultType: 'task', taskId: task.taskId });
    for (const e of entries) {
      expect(Object.keys(req(e).params?._meta['io.modelcontextprotocol/clientCapabilities'].extensions)).toContain('io.modelcontextprotocol/tasks');
      if (req(e).method?.startsWith('tasks/')) {
        expect(header(e, 'mcp-name')).toBe(task.taskId);
        expect(res(e).result?.resultType).toBe('complete');
      }
    }
    expect(res(entries[entries.length - 1]).result?.status).toBe(task.finalStatus);
    const updated = entries.filter((e) => req(e).method === 'tasks/update').flatMap((e) => Object.keys(req(e).params?.inputResponses ?? {}));
    expect(updated).toEqual(task.keys);
  });
});
