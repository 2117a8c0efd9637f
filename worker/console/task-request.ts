// Requests and readings of the tasks extension (io.modelcontextprotocol/tasks) as the
// Console sends them: the extension declared in each request's own clientCapabilities
// (tasks:23-63), Mcp-Name set to params.taskId on tasks/* (tasks:509-511), and the Task
// read back from a CreateTaskResult or a tasks/get result (tasks:104-148, 304-340).
import type { JsonRpcId } from '../protocol.js';
import { asObject, own } from '../decode/meta.js';
import { buildRequest, encodeHeaderValue } from './request.js';
import type { BuiltRequest, InputRequest, RoundReading } from './types.js';

/** The extension's identifier, as declared in clientCapabilities.extensions. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
const STATUSES: ReadonlySet<string> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a task status is terminal (the task will not change again). */
export function isTerminalStatus(status: string | null | undefined): boolean {
  return status !== null && status !== undefined && TERMINAL.has(status);
}

/** Capabilities with the tasks extension declared (others kept). */
export function withTasksExtension(capabilities: Record<string, unknown>): Record<string, unknown> {
  const extensions = { ...(asObject(own(capabilities, 'extensions')) ?? {}), [TASKS_EXTENSION]: {} };
  return { ...capabilities, extensions };
}

/** The answer is -32021 naming the tasks extension: the tool runs only as a task. */
export function needsTasksExtension(reading: RoundReading): boolean {
  if (reading.kind !== 'error' || reading.error.code !== -32021) return false;
  const required = asObject(own(asObject(reading.error.data), 'requiredCapabilities'));
  return own(asObject(own(required, 'extensions')), TASKS_EXTENSION) !== undefined;
}

/** Who the Console is for every request of one task. */
export interface TaskClient {
  clientInfo: { name: string; version: string };
  capabilities: Record<string, unknown>;
}

/** A tasks/get, tasks/update or tasks/cancel with the envelope, the extension and Mcp-Name = taskId. */
export function buildTaskRequest(method: 'tasks/get' | 'tasks/update' | 'tasks/cancel', taskId: string, client: TaskClient, id: JsonRpcId, extra: Record<string, unknown> = {}): BuiltRequest {
  const built = buildRequest({ method, id, params: { taskId, ...extra }, clientInfo: client.clientInfo, capabilities: withTasksExtension(client.capabilities) });
  built.headers.push({ name: 'Mcp-Name', value: encodeHeaderValue(taskId) });
  return built;
}

/** A Task as a CreateTaskResult or tasks/get result states it. */
export interface TaskReading {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  pollIntervalMs?: number;
  ttlMs?: number | null;
  resultType?: string;
  /** input_required: the outstanding requests (tasks/get MUST list all of them). */
  inputRequests?: Record<string, InputRequest>;
  /** completed: the tool's result; failed: the error. */
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** The Task in a round's answer, or why there is none (an error, a plain result, junk). */
export function readTask(reading: RoundReading): { task: TaskReading } | { problem: string } {
  if (reading.kind === 'failed') return { problem: reading.message };
  if (reading.kind === 'error') return { problem: `error ${reading.error.code}: ${reading.error.message}` };
  const r = reading.result;
  const taskId = own(r, 'taskId');
  const status = own(r, 'status');
  if (typeof taskId !== 'string' || typeof status !== 'string' || !STATUSES.has(status)) {
    return { problem: `the answer is not a task (resultType ${JSON.stringify(own(r, 'resultType') ?? null)})` };
  }
  const task: TaskReading = { taskId, status: status as TaskStatus };
  const rt = own(r, 'resultType');
  if (typeof rt === 'string') task.resultType = rt;
  const msg = own(r, 'statusMessage');
  if (typeof msg === 'string') task.statusMessage = msg;
  const poll = own(r, 'pollIntervalMs');
  if (typeof poll === 'number' && Number.isFinite(poll) && poll >= 0) task.pollIntervalMs = poll;
  const ttl = own(r, 'ttlMs');
  if (typeof ttl === 'number' || ttl === null) task.ttlMs = ttl;
  const reqs = asObject(own(r, 'inputRequests'));
  if (reqs) {
    task.inputRequests = {};
    for (const [k, v] of Object.entries(reqs)) {
      const method = own(asObject(v), 'method');
      const params = asObject(own(asObject(v), 'params'));
      task.inputRequests[k] = { method: typeof method === 'string' ? method : '', ...(params ? { params } : {}) };
    }
  }
  const result = asObject(own(r, 'result'));
  if (result) task.result = result;
  const err = asObject(own(r, 'error'));
  if (err) task.error = { code: typeof err.code === 'number' ? err.code : 0, message: typeof err.message === 'string' ? err.message : '', ...(err.data !== undefined ? { data: err.data } : {}) };
  return { task };
}

/** Whether a round's answer is the empty acknowledgement tasks/update and tasks/cancel return. */
export function isAck(reading: RoundReading): boolean {
  return reading.kind === 'complete';
}
