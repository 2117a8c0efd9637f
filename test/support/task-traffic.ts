// Tasks-extension traffic on the capture builder, in the shapes a 2026-07-28 server and
// client put on the wire: a `tools/call` declaring the extension answered with a
// `CreateTaskResult`, then `tasks/get` polls, `tasks/update` answers and `tasks/cancel`,
// each with `Mcp-Name: <taskId>` as the extension requires on HTTP.
import { ALL_CAPABILITIES, type Call, type CaptureBuilder } from './capture-builder.js';

type Json = Record<string, unknown>;

export const TASKS = 'io.modelcontextprotocol/tasks';
/** Every input kind, plus the tasks extension. */
export const TASK_CAPABILITIES: Json = { ...ALL_CAPABILITIES, extensions: { [TASKS]: {} } };

/** A `Task` object as servers report it. */
export function taskObject(taskId: string, status: string, extra: Json = {}): Json {
  return { taskId, status, createdAt: '2026-11-30T12:00:00Z', lastUpdatedAt: '2026-11-30T12:00:01Z', ttlMs: 600000, pollIntervalMs: 500, ...extra };
}

/** A tools/call declaring the extension, answered with `resultType: "task"`. */
export function startTask(b: CaptureBuilder, params: Json, taskId: string, extra: Json = {}): Call {
  return b.call('tools/call', params).capabilities(TASK_CAPABILITIES).result({ resultType: 'task', ...taskObject(taskId, 'working', extra) });
}

/** A tasks/get answered with the task in `status` (extra: inputRequests, result, error…). */
export function poll(b: CaptureBuilder, taskId: string, status: string, extra: Json = {}): Call {
  return b.call('tasks/get', { taskId }).capabilities(TASK_CAPABILITIES).header('mcp-name', taskId)
    .result({ resultType: 'complete', ...taskObject(taskId, status), ...extra });
}

/** A tasks/update carrying `inputResponses`, acknowledged. */
export function update(b: CaptureBuilder, taskId: string, inputResponses: Json): Call {
  return b.call('tasks/update', { taskId, inputResponses }).capabilities(TASK_CAPABILITIES).header('mcp-name', taskId).result({ resultType: 'complete' });
}

/** A tasks/cancel, acknowledged. */
export function cancel(b: CaptureBuilder, taskId: string): Call {
  return b.call('tasks/cancel', { taskId }).capabilities(TASK_CAPABILITIES).header('mcp-name', taskId).result({ resultType: 'complete' });
}
