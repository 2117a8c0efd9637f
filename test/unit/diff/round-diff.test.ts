// Round-to-round diffs: structural JSON comparison of params, inputResponses and the
// decoded token payloads of two rounds of one call.
import { describe, expect, it } from 'vitest';
import { diffJson, diffRounds } from '../../../worker/diff/round-diff.ts';

describe('diffJson', () => {
  it('finds nothing between equal values, whatever the key order', () => {
    expect(diffJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }).changes).toEqual([]);
  });

  it('reports added, removed and changed leaves with their paths', () => {
    const { changes } = diffJson({ a: 1, gone: true, nested: { x: 'old' } }, { a: 2, nested: { x: 'new', y: null } });
    expect(changes).toEqual([
      { path: '/a', kind: 'changed', before: '1', after: '2' },
      { path: '/nested/x', kind: 'changed', before: '"old"', after: '"new"' },
      { path: '/nested/y', kind: 'added', after: 'null' },
      { path: '/gone', kind: 'removed', before: 'true' },
    ]);
  });

  it('compares arrays by index and reports a grown array as added elements', () => {
    expect(diffJson([1, 2], [1, 3, 4]).changes).toEqual([
      { path: '/1', kind: 'changed', before: '2', after: '3' },
      { path: '/2', kind: 'added', after: '4' },
    ]);
  });

  it('reports a type change at the root as one change', () => {
    expect(diffJson(null, { a: 1 }).changes).toEqual([{ path: '', kind: 'changed', before: 'null', after: '{"a":1}' }]);
  });

  it('escapes slashes and tildes in keys the JSON-pointer way', () => {
    expect(diffJson({}, { 'a/b~c': 1 }).changes[0].path).toBe('/a~1b~0c');
  });

  it('caps the number of changes and counts the rest', () => {
    const a = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const b = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i + 1]));
    const { changes, omitted } = diffJson(a, b, 10);
    expect(changes).toHaveLength(10);
    expect(omitted).toBe(40);
  });

  it('survives hostile nesting by comparing the deep rest as text', () => {
    let a: unknown = 1;
    let b: unknown = 2;
    for (let i = 0; i < 5000; i++) { a = { n: a }; b = { n: b }; }
    const { changes } = diffJson(a, b);
    expect(changes).toHaveLength(1);
    expect(changes[0].kind).toBe('changed');
  });

  it('cuts long values to a readable length and says how long they were', () => {
    const { changes } = diffJson({ s: 'a' }, { s: 'x'.repeat(5000) });
    expect(changes[0].after).toMatch(/… \(5002 chars\)$/);
  });
});

describe('diffRounds', () => {
  it('splits a retry into params, inputResponses and token payload sections', () => {
    const prev = {
      params: { name: 'setup_wizard', arguments: {}, inputResponses: { name: { action: 'accept', content: { name: 'ws' } } }, requestState: 'v1.a' },
      tokenPayload: { p: { step: 1, answers: { name: 'ws' } } },
    };
    const next = {
      params: { name: 'setup_wizard', arguments: {}, inputResponses: { region: { action: 'accept', content: { region: 'eu' } } }, requestState: 'v1.b' },
      tokenPayload: { p: { step: 2, answers: { name: 'ws', region: 'eu' } } },
    };
    const d = diffRounds(1, prev, next);
    expect(d.against).toBe(1);
    expect(d.sections.map((s) => s.label)).toEqual(['params', 'inputResponses', 'token payload']);
    // The token and the answers have their own sections; the rest of params is unchanged.
    expect(d.sections[0].changes).toEqual([]);
    expect(d.sections[1].changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['added /region', 'removed /name']);
    expect(d.sections[2].changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['changed /p/step', 'added /p/answers/region']);
  });

  it('shows a first retry against the original as everything added', () => {
    const d = diffRounds(0, { params: { name: 'confirm_action', arguments: { action: 'x' } }, tokenPayload: null },
      { params: { name: 'confirm_action', arguments: { action: 'x' }, inputResponses: { confirm: { action: 'accept' } }, requestState: 'v1.z' }, tokenPayload: { p: { a: 1 } } });
    expect(d.sections[0].changes).toEqual([]);
    expect(d.sections[1].changes).toEqual([{ path: '', kind: 'changed', before: 'null', after: '{"confirm":{"action":"accept"}}' }]);
    expect(d.sections[2].changes[0].after).toBe('{"p":{"a":1}}');
  });

  it('catches a retry that changed its arguments', () => {
    const d = diffRounds(0, { params: { name: 't', arguments: { n: 1 } }, tokenPayload: null }, { params: { name: 't', arguments: { n: 2 } }, tokenPayload: null });
    expect(d.sections[0].changes).toEqual([{ path: '/arguments/n', kind: 'changed', before: '1', after: '2' }]);
  });
});
