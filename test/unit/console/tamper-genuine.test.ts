// Setting a tampered token's answer against the genuine token's: strict equality of the
// result (keys in any order), every difference named by its path.
import { describe, expect, it } from 'vitest';
import { compareWithGenuine } from '../../../worker/console/tamper-genuine.js';
import type { RoundReading } from '../../../worker/console/types.js';

const complete = (result: Record<string, unknown>): RoundReading => ({ kind: 'complete', result });
const asking = (requestState: string): RoundReading => ({
  kind: 'input_required', requestState, inputRequests: { confirm: { method: 'elicitation/create', params: {} } },
  result: { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: {} } }, requestState },
});

describe('compareWithGenuine', () => {
  it('calls two results the same when only their key order differs', () => {
    const a = complete({ content: [{ type: 'text', text: 'ok' }], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's' } } });
    const b = complete({ _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's' } }, content: [{ text: 'ok', type: 'text' }] });
    expect(compareWithGenuine(a, b)).toEqual({ same: true });
  });

  it('names the path of a changed value, and ignores neither timestamps nor _meta', () => {
    expect(compareWithGenuine(complete({ content: [{ type: 'text', text: 'Done: "deploz"' }] }), complete({ content: [{ type: 'text', text: 'Done: "deploy"' }] })))
      .toEqual({ same: false, difference: `its answer differs from the genuine token's: content[0].text changed from "Done: \\"deploy\\"" to "Done: \\"deploz\\""` });
    expect(compareWithGenuine(complete({ at: '2026-01-01T00:00:01Z' }), complete({ at: '2026-01-01T00:00:00Z' })).same).toBe(false);
    expect(compareWithGenuine(complete({ _meta: { n: 2 } }), complete({ _meta: { n: 1 } })).same).toBe(false);
  });

  it('counts a different next requestState as a different answer: it may carry the changed data on', () => {
    const r = compareWithGenuine(asking('eyJuYW1lIjoiQWNtZiJ9'), asking('eyJuYW1lIjoiQWNtZSJ9'));
    expect(r).toMatchObject({ same: false, difference: expect.stringContaining('requestState changed') });
    expect(compareWithGenuine(asking('same'), asking('same'))).toEqual({ same: true });
  });

  it('never calls answers of different kinds the same, nor any answer to a genuine retry that got none', () => {
    expect(compareWithGenuine(asking('s'), complete({ content: [] }))).toEqual({ same: false, difference: 'the genuine token got complete' });
    expect(compareWithGenuine(complete({}), { kind: 'error', status: 400, error: { code: -32602, message: 'bad' } }))
      .toEqual({ same: false, difference: 'the genuine token got no result to compare with (error -32602: bad)' });
  });
});
