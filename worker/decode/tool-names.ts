// Reads the tool names out of a `tools/list` answer, sent as JSON or as an event stream,
// and which tools said they run only as a task. Asked by the page's demo-tool menu through
// the worker; a body it cannot read gives no names, never an error.
import { parseEventStreamText } from '../capture/event-stream.js';
import { asObject, own } from './meta.js';

// The JSON texts of a body: the body itself, or each event's data.
function texts(body: string): string[] {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return [trimmed];
  return parseEventStreamText(body, 0).events.map((e) => e.data);
}

/**
 * Where a 2026-07-28 server can say a tool runs only as a task, in the tool's `_meta`. The
 * Tasks extension has no per-tool declaration (the server decides per request; -32021 is
 * the only standard signal) and the 2026 wire deletes the 2025-11-25 `execution` field, so
 * the demo says it under its own `_meta` prefix, which the spec allows any implementation.
 */
export const TASK_SUPPORT_META = 'dev.mrtr-inspector/taskSupport';

/** One tool of a `tools/list` answer: its name, and whether it said it runs only as a task. */
export interface ListedTool { name: string; taskOnly: boolean }

/** Whether a tool declares it runs only as a task: the demo's `_meta` hint, or the
 *  2025-11-25 `execution.taskSupport` an older server (or a v1 tasks server) still sends. */
function taskOnly(tool: Record<string, unknown> | undefined): boolean {
  return own(asObject(own(tool, '_meta')), TASK_SUPPORT_META) === 'required'
    || own(asObject(own(tool, 'execution')), 'taskSupport') === 'required';
}

/** The tools in a `tools/list` result (in the server's order), or [] when the body holds none. */
export function toolList(body: string): ListedTool[] {
  for (const text of texts(body)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    const tools = own(asObject(own(asObject(value), 'result')), 'tools');
    if (!Array.isArray(tools)) continue;
    const out: ListedTool[] = [];
    for (const t of tools) {
      const o = asObject(t);
      const name = own(o, 'name');
      if (typeof name === 'string' && name !== '') out.push({ name, taskOnly: taskOnly(o) });
    }
    return out;
  }
  return [];
}

/** The names in a `tools/list` result (in the server's order), or [] when the body holds none. */
export function toolNames(body: string): string[] {
  return toolList(body).map((t) => t.name);
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
