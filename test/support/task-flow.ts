// The tasks-extension flow the mock's proof runs: the official @modelcontextprotocol/ext-tasks
// 0.2.2 client over the SDK v2 client 2.4.0 creates the demo's research_report task, answers
// what it asks (a form, then a sampling request) with tasks/update, polls with tasks/get and
// settles it. ext-tasks sends the task's requests through `rawDispatch` (the SDK's codecs
// reject the 2026 task shapes): one JSON-RPC POST each (`rawDispatch`, shared with
// test/peers/record-tasks.ts).
// What the task settled to and what the client was asked are the ground truth compared.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';

const CLIENT_INFO = { name: 'ext-tasks-proof', version: '1.0.0' };
const CAPABILITIES = { elicitation: { form: {} }, sampling: {} };
const VERSION = '2026-07-28';

/** ext-tasks' raw path: one JSON-RPC POST with the 2026 headers (Mcp-Name = params.name on
 *  tools/call, params.taskId on tasks/*), the answer read from JSON or the SSE frame for our
 *  id. Also test/peers/record-tasks.ts's, which sends through its recording proxy's fetch. */
export function rawDispatch(url: string, doFetch: typeof fetch = fetch): RawClientDispatch {
  let next = 0;
  return async (request) => {
    const msg = { jsonrpc: '2.0', id: `ext-tasks-${++next}`, ...(request as Record<string, unknown>) } as unknown as { id: string; method: string; params?: Record<string, unknown> };
    const name = msg.method === 'tools/call' ? msg.params?.name : msg.params?.taskId;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': msg.method };
    if (typeof name === 'string') headers['mcp-name'] = name;
    const res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(msg) });
    const text = await res.text();
    const frames = res.headers.get('content-type')?.includes('event-stream') ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)) : [text];
    for (const f of frames) {
      const m = JSON.parse(f) as { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
      if (m.id !== msg.id) continue;
      if (m.error) return { kind: 'error', error: m.error } as never;
      return { kind: 'result', result: m.result } as never;
    }
    throw new Error(`no answer to ${msg.id} (HTTP ${res.status}): ${text.slice(0, 200)}`);
  };
}

/** What one run of the task gave: the client's view, comparable between server and mock. */
export interface TaskRun {
  kind: string;
  asked: { key: string; kind: string }[];
  outcome: unknown;
}

/** How the flow's client answers the scope form: accept (the report is written, after a
 *  sampling request) or decline (the demo ends the task with an error result). */
export type ScopeAnswer = 'accept' | 'decline';

/** Runs research_report as a task against `url` to its end. */
export async function taskFlow(url: string, scope: ScopeAnswer = 'accept'): Promise<TaskRun> {
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: 'auto' }, capabilities: CAPABILITIES });
  const asked: TaskRun['asked'] = [];
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    await client.listTools();
    const session = createTaskSessionFromClient(client, {
      endpointId: 'mock-proof',
      rawDispatch: rawDispatch(url),
      v2RequestFraming: { protocolVersion: VERSION, clientInfo: CLIENT_INFO, clientCapabilities: CAPABILITIES },
      onInputRequest: async (request, ctx) => {
        asked.push({ key: ctx.inputId ?? '(no key)', kind: request.kind });
        if (request.kind === 'elicitation') return (scope === 'accept' ? { action: 'accept', content: { topic: 'tides', depth: 'brief' } } : { action: 'decline' }) as never;
        if (request.kind === 'sampling') return { role: 'assistant', content: { type: 'text', text: 'Tides rise and fall twice a day.' }, model: 'proof-model', stopReason: 'endTurn' } as never;
        return { roots: [] } as never;
      },
    });
    try {
      const execution = await session.callTool('research_report', {});
      if (execution.kind !== 'task') return { kind: execution.kind, asked, outcome: execution };
      const settled = await execution.settle();
      return { kind: 'task', asked, outcome: settled.outcome };
    } finally {
      await session.close();
    }
  } finally {
    await client.close();
  }
}
