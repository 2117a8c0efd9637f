// web/lib/mock-serve.svelte.ts: "Serve as mock" in the page, on a stub worker and a stubbed
// fetch standing in for the relay's page API.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MOCKS_API, MockServe, mockNameFor, PAGE_MOCK_TIMING, type MockServeHost } from '../../../web/lib/mock-serve.svelte.ts';
import { DEFAULT_MOCK_TIMING } from '../../../worker/mock/http-answer.ts';

type Relay = (url: string, init?: RequestInit) => Response | Promise<Response>;

function setup(relay: Relay, check: (text: string) => string | null = () => null) {
  const sent: { url: string; method: string; body?: unknown }[] = [];
  const exports: unknown[] = [];
  const said: string[] = [];
  let current = { id: 's1', name: 'Demo Session.har', createdAt: 0, capturing: false };
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    sent.push({ url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return relay(url, init);
  }));
  const api = {
    transfer: {
      answerOf: async (_s: string, id: string) => ({ ok: true, value: { text: `{"recorded": "${id}"}` } }),
      checkEdit: async (_s: string, _id: string, text: string) => ({ ok: true, value: check(text) }),
      exportCapture: async (session: string, opts: unknown) => {
        exports.push({ session, opts });
        return { ok: true, value: { text: '{"jsonl": true}\n', count: 1, fileName: 'x.jsonl' } };
      },
    },
  };
  const host = {
    api: () => api,
    sessions: { get current() { return current; }, exchanges: [] },
    say: (m: string) => void said.push(m),
  } as unknown as MockServeHost;
  const ms = new MockServe(host);
  return { ms, sent, exports, said, show: (id: string) => void (current = { ...current, id }) };
}

const json = (status: number, v: unknown): Response => new Response(JSON.stringify(v), { status });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('serving the session on screen as a mock', () => {
  it('names the mock after the session, in the letters a target id allows', () => {
    expect(mockNameFor('Demo Session.har')).toBe('demo-session');
    expect(mockNameFor('relay-2026-12-05T20:41:00.000Z')).toBe('relay-2026-12-05t20-41-00.000z');
    expect(mockNameFor('***')).toBe('session');
  });

  it('keeps an edit only when the worker\'s check passes, and shows the check\'s message otherwise', async () => {
    const { ms } = setup(() => json(200, { mocks: [] }), (text) => (text.includes('bad') ? 'At "error.code": must be an integer (e.g. -32603), not "bad".' : null));
    await ms.pick('e2');
    expect(ms.draft).toBe('{"recorded": "e2"}');
    ms.setDraft('{"error": {"code": "bad"}}');
    expect(await ms.applyEdit()).toBe(false);
    expect(ms.draftError).toBe('At "error.code": must be an integer (e.g. -32603), not "bad".');
    expect(ms.edits.size).toBe(0);
    ms.setDraft('{"error": {"code": -1}}');
    expect(await ms.applyEdit()).toBe(true);
    expect([...ms.edits]).toEqual([['e2', '{"error": {"code": -1}}']]);
    // Picking it again shows the edit, not the recording; undo brings the recording back.
    await ms.pick('e2');
    expect(ms.draft).toBe('{"error": {"code": -1}}');
    ms.undoEdit('e2');
    expect(ms.edits.size).toBe(0);
  });

  it('serves the exported session with its edits under the chosen name, and shows the relay\'s refusal as it is', async () => {
    let taken = false;
    const { ms, sent, exports } = setup((url, init) => {
      if (init?.method === 'POST') return taken ? json(409, { error: 'A mock named "demo-session" is already served (target mock-demo-session). Stop serving it first, or pick another name.' }) : json(201, { mock: { targetId: 'mock-demo-session' } });
      return json(200, { mocks: [{ name: 'demo-session' }] });
    });
    ms.open();
    expect(ms.name).toBe('demo-session');
    await ms.pick('e2');
    ms.setDraft('{"edited": 1}');
    await ms.applyEdit();
    await ms.serve();
    expect(exports).toEqual([{ session: 's1', opts: { format: 'jsonl', name: 'Demo Session.har', edits: [{ exchange: 'e2', text: '{"edited": 1}' }] } }]);
    expect(sent.find((s) => s.method === 'POST')).toEqual({ url: MOCKS_API, method: 'POST', body: { name: 'demo-session', capture: '{"jsonl": true}\n', source: 'Demo Session.har', timing: 'recorded', strict: false } });
    expect(ms.error).toBeNull();
    expect(ms.mocks.map((m) => m.name)).toEqual(['demo-session']);
    taken = true;
    ms.setTiming('fast');
    ms.setStrict(true);
    await ms.serve();
    expect(sent.filter((s) => s.method === 'POST').map((s) => (s.body as { timing: string }).timing)).toEqual(['recorded', 'fast']);
    expect(sent.filter((s) => s.method === 'POST').map((s) => (s.body as { strict: boolean }).strict)).toEqual([false, true]);
    expect(ms.error).toBe('A mock named "demo-session" is already served (target mock-demo-session). Stop serving it first, or pick another name.');
    ms.close();
  });

  it('serves with the CLI\'s default timing unless another is picked', () => {
    expect(PAGE_MOCK_TIMING).toBe(DEFAULT_MOCK_TIMING);
    const { ms } = setup(() => json(200, { mocks: [] }));
    expect(ms.timing).toBe(DEFAULT_MOCK_TIMING);
  });

  it('drops the edits when another session is shown', async () => {
    const { ms, show } = setup(() => json(200, { mocks: [] }));
    await ms.pick('e2');
    ms.setDraft('{"x": 1}');
    await ms.applyEdit();
    expect(ms.edits.size).toBe(1);
    show('s2');
    expect(ms.edits.size).toBe(0);
    expect(ms.picked).toBeNull();
  });
});
