// The edit-and-resend draft parser (pure, never throws) and the diff against the original.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffDraft, draftText, parseDraft } from '../../../worker/console/draft.js';

const request = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 't', requestState: 'abc' } };

describe('draft parsing', () => {
  it('reads a bare JSON body and keeps its text verbatim for sending', () => {
    const text = '{"jsonrpc":"2.0", "id":3,"method":"tools/call","params":{"name":"t"}}';
    const r = parseDraft(text);
    expect(r).toMatchObject({ ok: true, body: text, message: { id: 3, method: 'tools/call' } });
  });

  it('reads a header block, a blank line and the body', () => {
    const r = parseDraft(draftText(request, [{ name: 'Mcp-Method', value: 'tools/call' }, { name: 'Accept', value: 'application/json, text/event-stream' }]));
    expect(r.ok && r.headers).toEqual([{ name: 'Mcp-Method', value: 'tools/call' }, { name: 'Accept', value: 'application/json, text/event-stream' }]);
  });

  it('says where the JSON breaks, by line and column', () => {
    const r = parseDraft('{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": tools/call\n}');
    expect(r).toEqual({ ok: false, error: { message: expect.stringContaining('not JSON'), line: 4, column: 13 } });
  });

  it('points at the field that makes it no request', () => {
    const text = draftText({ ...request, params: { ...request.params, requestState: 42 } });
    const r = parseDraft(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toContain('requestState');
      expect(text.split('\n')[r.error.line - 1]).toContain('"requestState"');
    }
    expect(parseDraft('{"jsonrpc":"2.0","method":"x"}')).toMatchObject({ ok: false, error: { message: expect.stringContaining('"id"') } });
    expect(parseDraft('[{"jsonrpc":"2.0"}]')).toMatchObject({ ok: false, error: { message: expect.stringContaining('batch') } });
    expect(parseDraft('Bad Header\n\n{}')).toMatchObject({ ok: false, error: { line: 1 } });
  });

  it('never throws, whatever is typed', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.string({ unit: 'binary' }), fc.jsonValue().map((v) => `X-A: b\n\n${JSON.stringify(v)}`)), (text) => {
      const r = parseDraft(text);
      expect(typeof r.ok).toBe('boolean');
      if (!r.ok) {
        expect(r.error.line).toBeGreaterThanOrEqual(1);
        expect(r.error.column).toBeGreaterThanOrEqual(1);
      }
    }), { numRuns: 2000 });
  });

  it('diffs the edited draft against the original by line', () => {
    const original = draftText(request);
    const edited = original.replace('"abc"', '"abd"');
    const changes = diffDraft(original, edited);
    expect(changes.filter((c) => c.kind === 'removed').map((c) => c.text.trim())).toEqual(['"requestState": "abc"']);
    expect(changes.filter((c) => c.kind === 'added').map((c) => c.text.trim())).toEqual(['"requestState": "abd"']);
    expect(diffDraft(original, original).every((c) => c.kind === 'same')).toBe(true);
  });
});
