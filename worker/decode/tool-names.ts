// Reads the tool names out of a `tools/list` answer, sent as JSON or as an event stream.
// Asked by the page's demo-tool menu through the worker; a body it cannot read gives no
// names, never an error.
import { parseEventStreamText } from '../capture/event-stream.js';
import { asObject, own } from './meta.js';

// The JSON texts of a body: the body itself, or each event's data.
function texts(body: string): string[] {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return [trimmed];
  return parseEventStreamText(body, 0).events.map((e) => e.data);
}

/** The names in a `tools/list` result (in the server's order), or [] when the body holds none. */
export function toolNames(body: string): string[] {
  for (const text of texts(body)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    const tools = own(asObject(own(asObject(value), 'result')), 'tools');
    if (!Array.isArray(tools)) continue;
    return tools.map((t) => own(asObject(t), 'name')).filter((n): n is string => typeof n === 'string' && n !== '');
  }
  return [];
}

/** The JSON-RPC error in a `tools/call` answer's body (JSON or event stream), or null when it holds none. */
export function rpcErrorOf(body: string): { code: number; message: string } | null {
  for (const text of texts(body)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    const error = asObject(own(asObject(value), 'error'));
    const code = own(error, 'code');
    if (typeof code === 'number') return { code, message: String(own(error, 'message') ?? '') };
  }
  return null;
}
