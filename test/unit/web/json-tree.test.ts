import { describe, expect, it } from 'vitest';
import { branchSummary, childPath, countNodes, searchTree } from '../../../web/lib/json-tree.ts';

describe('json tree helpers', () => {
  it('writes paths as the diffs write them, quoting keys that cannot follow a dot', () => {
    expect(childPath('', 'result')).toBe('result');
    expect(childPath(childPath('result', 'content'), 0)).toBe('result.content[0]');
    expect(childPath('_meta', 'io.modelcontextprotocol/serverInfo')).toBe('_meta["io.modelcontextprotocol/serverInfo"]');
  });

  it('finds a query in keys and values, case-insensitively, and names the branches that hold it', () => {
    const v = { result: { content: [{ type: 'text', text: 'Created Acme' }] }, id: 3 };
    const s = searchTree(v, 'acme');
    expect([...s.hits]).toEqual(['result.content[0].text']);
    expect([...s.around].sort()).toEqual(['', 'result', 'result.content', 'result.content[0]']);
    expect([...searchTree(v, 'TYPE').hits]).toEqual(['result.content[0].type']);
    expect(searchTree(v, '  ').hits.size).toBe(0);
  });

  it('walks a value nested far deeper than the call stack without throwing', () => {
    let deep: unknown = 'needle';
    for (let i = 0; i < 5_000; i++) deep = [deep];
    expect(searchTree(deep, 'needle').hits.size).toBe(1);
    expect(countNodes(deep, 50)).toBe(50);
  });

  it('summarises a closed branch by what it holds', () => {
    expect(branchSummary({ a: 1, b: 2 })).toBe('2 keys');
    expect(branchSummary([1])).toBe('1 item');
  });
});
