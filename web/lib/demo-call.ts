// Builds and sends a 2026-07-28 `tools/call`, the way a conforming client would, through
// the page's own fetch so the service worker taps it.
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../worker/decode/meta.js';

export const MCP_PROTOCOL_VERSION = '2026-07-28';
export const DEMO_ENDPOINT = '/demo/mcp';
export const DEMO_TOOL = 'busy';
const CLIENT_INFO = { name: 'mrtr-inspector', version: '0.1.0' };

let nextId = 1;

/** The headers and body of one `tools/call` request. */
export function toolsCallRequest(name: string, args: Record<string, unknown> = {}): { headers: Record<string, string>; body: string } {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: {
        [META_PROTOCOL_VERSION]: MCP_PROTOCOL_VERSION,
        [META_CLIENT_INFO]: CLIENT_INFO,
        [META_CLIENT_CAPABILITIES]: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
      },
    },
  };
  return {
    headers: {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'MCP-Protocol-Version': MCP_PROTOCOL_VERSION,
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
    },
    body: JSON.stringify(body),
  };
}

/** Sends the call and reads the whole answer. Network failures come back as data. */
export async function callTool(url: string, name: string, signal?: AbortSignal): Promise<{ ok: boolean; summary: string }> {
  const { headers, body } = toolsCallRequest(name);
  try {
    const res = await fetch(url, { method: 'POST', headers, body, ...(signal ? { signal } : {}) });
    await res.text();
    return { ok: res.ok, summary: `${name} → HTTP ${res.status}` };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, summary: `${name} → ${why} (is the server running, and does it send CORS headers? If not, watch it via the relay.)` };
  }
}
