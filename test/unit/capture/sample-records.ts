// Records shaped as live capture writes them, for round-trip and sanitising tests.
import type { ExchangeRecord } from '../../../worker/protocol.js';

/** Three exchanges: a JSON answer, an event stream cut mid-event, and an aborted request. */
export function sampleRecords(): ExchangeRecord[] {
  const t0 = 1785576601000.25;
  return [
    {
      v: 1, id: 'sw-7f3a', seq: 0, session: 's1', source: 'sw', client: 'page-1', startedAt: t0,
      request: {
        method: 'POST', url: 'http://localhost:3000/mcp?api=1',
        headers: [
          { name: 'Content-Type', value: 'application/json' },
          { name: 'Authorization', value: 'Bearer sk-live-123' },
          { name: 'Mcp-Method', value: 'tools/call' },
          { name: 'Mcp-Name', value: 'get_weather' },
          { name: 'MCP-Protocol-Version', value: '2026-07-28' },
        ],
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{}}}',
      },
      response: {
        status: 200, statusText: 'OK', receivedAt: t0 + 20.5,
        headers: [{ name: 'content-type', value: 'application/json' }],
        body: '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"abc"}}',
      },
      endedAt: t0 + 21, state: 'complete',
    },
    {
      v: 1, id: 'sw-7f3b', seq: 1, session: 's1', source: 'relay', startedAt: t0 + 100, derivedFrom: 'sw-7f3a',
      request: { method: 'POST', url: 'http://localhost:3000/mcp', headers: [{ name: 'content-type', value: 'application/json' }], body: '' },
      response: {
        status: 200, receivedAt: t0 + 130, headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
        events: [
          { t: t0 + 131, event: 'message', data: '{"jsonrpc":"2.0","method":"notifications/progress"}' },
          { t: t0 + 190.75, data: 'two\nlines', id: '' },
        ],
        tail: 'event: message\ndata: {"jsonrpc":"2.0","id":2,"res',
      },
      endedAt: t0 + 200, state: 'aborted', error: 'stream closed by client',
    },
    {
      v: 1, id: 'console-1', seq: 2, source: 'console', startedAt: t0 + 300,
      request: { method: 'GET', url: 'http://localhost:3000/mcp', headers: [] },
      state: 'failed', error: 'TypeError: Failed to fetch',
    },
  ];
}
