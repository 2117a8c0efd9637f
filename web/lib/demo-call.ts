// Builds and sends a 2026-07-28 `tools/call`, the way a conforming client would, through
// the page's own fetch so the service worker taps it.
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../worker/decode/meta.js';
import type { ListedTool } from '../../worker/facade.js';

export const MCP_PROTOCOL_VERSION = '2026-07-28';
export const DEMO_ENDPOINT = '/demo/mcp';
/**
 * The demo tool the toolbar calls until the user picks another: one that finishes on its
 * first request, with no question to answer (it streams a log line, then its report).
 * `busy` would stay in progress: its next rounds need a client that comes back.
 */
export const DEMO_TOOL = 'slow_report';
/** What "Call" on a watched endpoint calls: the tool the test servers and peers name so. */
export const TARGET_TOOL = 'busy';
const CLIENT_INFO = { name: 'mrtr-inspector', version: '0.1.0' };

let nextId = 1;

const META = {
  [META_PROTOCOL_VERSION]: MCP_PROTOCOL_VERSION,
  [META_CLIENT_INFO]: CLIENT_INFO,
  [META_CLIENT_CAPABILITIES]: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
};

function headersFor(method: string, name?: string): Record<string, string> {
  return {
    Accept: 'application/json, text/event-stream',
    'Content-Type': 'application/json',
    'MCP-Protocol-Version': MCP_PROTOCOL_VERSION,
    'Mcp-Method': method,
    ...(name !== undefined ? { 'Mcp-Name': name } : {}),
  };
}

/** The headers and body of one `tools/call` request. */
export function toolsCallRequest(name: string, args: Record<string, unknown> = {}): { headers: Record<string, string>; body: string } {
  const body = { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args, _meta: META } };
  return { headers: headersFor('tools/call', name), body: JSON.stringify(body) };
}

/**
 * The demo's tools, from one `tools/list` (captured like any call to the demo), read by the
 * analysis worker (`toolList`: the page does not parse traffic), with the ones that said
 * they run only as a task. Its id is a string of its own, so the calls keep their ids 1,
 * 2, 3… Failures come back as data.
 */
export async function listTools(url: string, toolList: (body: string) => Promise<ListedTool[]>, signal?: AbortSignal): Promise<{ tools: ListedTool[] } | { error: string }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: `tools-list-${nextId}`, method: 'tools/list', params: { _meta: META } });
  try {
    const res = await fetch(url, { method: 'POST', headers: headersFor('tools/list'), body, ...(signal ? { signal } : {}) });
    const tools = await toolList(await res.text());
    return tools.length ? { tools } : { error: `tools/list → HTTP ${res.status}, no tools in the answer` };
  } catch (err) {
    return { error: `tools/list → ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** -32021: the server needs an extension the call did not declare (here: a task-only tool). */
export const MISSING_EXTENSION = -32021;

/** What a call came to; `taskOnly` when the server runs the tool only as a task. */
export interface CallOutcome { ok: boolean; summary: string; taskOnly?: true }

/**
 * Sends the call and reads the whole answer; a JSON-RPC error in it (read by the worker,
 * `rpcError`) is named in the summary. Network failures come back as data.
 */
export async function callTool(url: string, name: string, rpcError: (body: string) => Promise<{ code: number; message: string } | null>,
  signal?: AbortSignal): Promise<CallOutcome> {
  const { headers, body } = toolsCallRequest(name);
  try {
    const res = await fetch(url, { method: 'POST', headers, body, ...(signal ? { signal } : {}) });
    const error = await rpcError(await res.text());
    if (error?.code === MISSING_EXTENSION) {
      return { ok: false, taskOnly: true, summary: `${name} runs only as a task (${error.code}): call it from the Console's Call & step with ▶ Call as task` };
    }
    if (error) return { ok: false, summary: `${name} → error ${error.code}: ${error.message}` };
    return { ok: res.ok, summary: `${name} → HTTP ${res.status}` };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, summary: `${name} → ${why} (is the server running, and does it send CORS headers? If not, watch it via the relay.)` };
  }
}
