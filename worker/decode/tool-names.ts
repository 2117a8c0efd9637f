// Reads the tool names out of a `tools/list` answer, sent as JSON or as an event stream.
// Used by the page's demo-tool menu; a body it cannot read gives no names, never an error.
import { asObject, own } from './meta.js';

// The JSON texts of a body: the body itself, or each event's data lines joined.
function texts(body: string): string[] {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return [trimmed];
  const out: string[] = [];
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''));
    if (data.length) out.push(data.join('\n'));
  }
  return out;
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
