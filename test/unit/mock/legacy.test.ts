// A 2025-era capture served to the 1.32 SDK client: initialize, then tools whose answers
// stream a server-to-client request (elicitation, sampling) before the result. The mock keeps
// no session: the recorded Mcp-Session-Id is dropped, the client's answers get 202.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { importCapture } from '../../../worker/capture/index.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { MockMatcher } from '../../../worker/mock/matcher.js';
import { startMockHttp, type MockHttpServer } from '../../../cli/mock/http-server.js';

let server: MockHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('mock of a 2025-era capture', () => {
  it('serves the 1.32 SDK client (another name and version than the recording\'s) its recorded legacy calls, without a session id', async () => {
    const imported = importCapture(readFileSync('test/fixtures/sdk/legacy-2025.har', 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const matcher = new MockMatcher(buildMockBook(imported.exchanges));
    const log: string[] = [];
    server = await startMockHttp(matcher, { port: 0, timing: 'fast', log: (l) => void log.push(l) });
    const sessionIds: (string | null)[] = [];
    const fetchSpy: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      sessionIds.push(res.headers.get('mcp-session-id'));
      return res;
    };
    const client = new Client({ name: 'another-client', version: '2.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'anything' }, model: 'm' }));
    const texts: string[] = [];
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: fetchSpy }));
      for (const name of ['legacy_confirm', 'legacy_summarize']) {
        const r = await client.callTool({ name, arguments: {} });
        texts.push((r.content as { text: string }[])[0].text);
      }
    } finally {
      await client.close();
    }
    const recorded = imported.exchanges.filter((e) => e.request.body?.includes('"tools/call"')).map((e) => JSON.stringify(e.response?.events ?? e.response?.body));
    for (const t of texts) expect(recorded.some((r) => r.includes(JSON.stringify(t).slice(1, -1)))).toBe(true);
    expect(texts).toHaveLength(2);
    expect(sessionIds.length).toBeGreaterThan(0);
    expect(sessionIds.every((s) => s === null)).toBe(true);
    expect(log).toEqual([]);
  }, 30_000);
});
