// Edits of recorded answers before serving (worker/mock/edit.ts): the answer shown for
// editing, the checks with what and where, and an edited capture that, exported and served,
// gives the client the edited answer (round 2 of the wizard turned into an error).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportJsonl, importCapture } from '../../../worker/capture/index.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { answerText, applyAnswerEdits, checkAnswerEdit, checkEditOf } from '../../../worker/mock/edit.js';
import { MockMatcher } from '../../../worker/mock/matcher.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';

const records = (): ExchangeRecord[] => {
  const got = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-manual.har', 'utf8'));
  if (!got.ok) throw new Error(got.error.message);
  return got.exchanges;
};
const wizardRound = (all: ExchangeRecord[], answered: string | null) =>
  all.find((r) => r.request.body?.includes('"setup_wizard"') && (answered === null ? !r.request.body.includes('inputResponses') : r.request.body.includes(`"inputResponses":{"${answered}"`)))!;
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const wizard = (id: number, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'setup_wizard', arguments: {}, _meta: meta, ...extra } });

describe('editing a recorded answer', () => {
  it('shows the answer to the exchange\'s own request, pretty, and says why an exchange has none', () => {
    const all = records();
    const first = wizardRound(all, null);
    const got = answerText(first);
    if (!got.ok) throw new Error(got.error);
    expect(got.text.split('\n').length).toBeGreaterThan(5);
    expect(JSON.parse(got.text)).toMatchObject({ jsonrpc: '2.0', result: { resultType: 'input_required' } });
    expect(JSON.parse(got.text).id).toBe(got.id);
    const noResponse = { ...first, response: undefined };
    expect(answerText(noResponse)).toEqual({ ok: false, error: `Exchange ${first.seq} has no recorded answer to its request (id ${JSON.stringify(got.id)}): no response was recorded.` });
  });

  it('says what is wrong and where: JSON syntax by line and column, the id, result and error, the error\'s code and message', () => {
    expect(checkAnswerEdit('{\n  "jsonrpc": "2.0",\n  "id": 3,\n  "result": {,}\n}', 3)).toEqual({ ok: false, error: expect.stringMatching(/^Not JSON \(line 4, column 14\): /) });
    expect(checkAnswerEdit('', 3)).toEqual({ ok: false, error: expect.stringMatching(/^Not JSON \(/) });
    expect(checkAnswerEdit('[1]', 3)).toEqual({ ok: false, error: expect.stringContaining('must be one JSON-RPC response object') });
    expect(checkAnswerEdit('{"jsonrpc":"2.0","id":4,"result":{}}', 3)).toEqual({ ok: false, error: 'At "id": must stay 3, the recorded request\'s id (the mock puts the client\'s id in its place), not 4.' });
    expect(checkAnswerEdit('{"jsonrpc":"2.0","id":3}', 3)).toEqual({ ok: false, error: 'The answer needs exactly one of "result" and "error"; it has neither.' });
    expect(checkAnswerEdit('{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"x"}}', 3)).toEqual({ ok: false, error: 'The answer needs exactly one of "result" and "error"; it has both.' });
    expect(checkAnswerEdit('{"jsonrpc":"2.0","id":3,"error":{"code":"bad","message":"x"}}', 3)).toEqual({ ok: false, error: 'At "error.code": must be an integer (e.g. -32603), not "bad".' });
    expect(checkAnswerEdit('{"jsonrpc":"2.0","id":3,"error":{"code":-1}}', 3)).toEqual({ ok: false, error: 'At "error.message": must be a string, not missing.' });
    expect(checkAnswerEdit('{"jsonrpc":"1.0","id":3,"result":{}}', 3)).toEqual({ ok: false, error: 'At "jsonrpc": must be "2.0", not "1.0".' });
    expect(checkAnswerEdit('{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"down"}}', 3).ok).toBe(true);
    const first = wizardRound(records(), null);
    expect(checkEditOf(first, '{}')).toEqual({ ok: false, error: `Exchange ${first.seq}: At "jsonrpc": must be "2.0", not missing.` });
  });

  it('serves the edited variant: round 2 of the wizard turned into an error reaches the client, the recording is unchanged', () => {
    const all = records();
    const round2 = wizardRound(all, 'name');
    const before = round2.response!.body;
    const id = (JSON.parse(round2.request.body!) as { id: unknown }).id;
    const text = JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Plans are unavailable right now' } });
    const edited = applyAnswerEdits(all, [{ exchange: round2.id, text }]);
    expect(round2.response!.body).toBe(before);
    // Saved as JSONL and read back, as "Serve as mock" and "Save edited capture" do.
    const back = importCapture(exportJsonl(edited));
    if (!back.ok) throw new Error(back.error.message);
    const m = new MockMatcher(buildMockBook(back.exchanges));
    const first = m.handle(wizard(1));
    if (first.kind !== 'answer') throw new Error(JSON.stringify(first));
    const state = (JSON.parse(first.messages[0].text) as { result: { requestState: string } }).result.requestState;
    const second = m.handle(wizard(2, { requestState: state, inputResponses: { name: { action: 'accept', content: { name: 'Acme Labs' } } } }));
    if (second.kind !== 'answer') throw new Error(JSON.stringify(second));
    expect(JSON.parse(second.messages[0].text)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Plans are unavailable right now' } });
    // Unedited, the same retry gets the recorded next question.
    const plain = new MockMatcher(buildMockBook(all));
    const s1 = plain.handle(wizard(1));
    if (s1.kind !== 'answer') throw new Error('no answer');
    const s2 = plain.handle(wizard(2, { requestState: (JSON.parse(s1.messages[0].text) as { result: { requestState: string } }).result.requestState, inputResponses: { name: { action: 'accept', content: { name: 'Acme Labs' } } } }));
    expect(s2.kind === 'answer' && JSON.parse(s2.messages[0].text).result.resultType).toBe('input_required');
  });

  it('replaces the answer event of a streamed response and keeps the other events', () => {
    const record: ExchangeRecord = {
      ...wizardRound(records(), null),
      response: {
        status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], receivedAt: 1,
        events: [{ t: 1, data: '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}' }, { t: 2, data: '{"jsonrpc":"2.0","id":"x1","result":{"content":[]}}' }],
      },
    };
    record.request = { ...record.request, body: '{"jsonrpc":"2.0","id":"x1","method":"tools/call","params":{"name":"a"}}' };
    const [out] = applyAnswerEdits([record], [{ exchange: record.id, text: '{"jsonrpc":"2.0","id":"x1","result":{"content":[{"type":"text","text":"edited"}]}}' }]);
    expect(out.response!.events!.map((e) => e.data)).toEqual([record.response!.events![0].data, '{"jsonrpc":"2.0","id":"x1","result":{"content":[{"type":"text","text":"edited"}]}}']);
  });

  it('refuses an edit that does not check, or of an exchange not in the capture, naming the exchange', () => {
    const all = records();
    const first = wizardRound(all, null);
    expect(() => applyAnswerEdits(all, [{ exchange: first.id, text: '{"jsonrpc":"2.0"' }])).toThrow(new RegExp(`^Exchange ${first.seq}: Not JSON`));
    expect(() => applyAnswerEdits(all, [{ exchange: 'nope', text: '{}' }])).toThrow('The edited exchange "nope" is not in this capture (or not in the filtered view).');
  });
});
