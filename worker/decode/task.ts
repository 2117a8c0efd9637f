// Reading the tasks extension's shapes (`io.modelcontextprotocol/tasks`) out of hostile
// bodies. A `Task` is flat in its result (`CreateTaskResult = Result & Task`); a nested
// `task` object, as pre-release servers sent, is read too. Never throws.
import { asObject, own } from './meta.js';

/** The extension's id, as declared in `clientCapabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The methods that address an existing task by `params.taskId`. */
export const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Statuses after which a task never changes (tasks:151-159). */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** What a task-bearing result says about its task. */
export interface TaskFields {
  taskId: string | null;
  status: string | null;
  pollIntervalMs: number | null;
  /** `inputRequests` as sent (an object, else undefined). */
  inputRequests: Record<string, unknown> | undefined;
  /** A completed task's tool result, when carried. */
  result: unknown;
  /** A failed task's error, when carried. */
  error: unknown;
}

/** The task fields of a result (flat, or under `task`). */
export function taskFields(result: Record<string, unknown> | undefined): TaskFields {
  const nested = asObject(own(result, 'task'));
  const src = typeof own(result, 'taskId') === 'string' || !nested ? result : nested;
  const id = own(src, 'taskId');
  const status = own(src, 'status');
  const poll = own(src, 'pollIntervalMs');
  return {
    taskId: typeof id === 'string' ? id : null,
    status: typeof status === 'string' ? status : null,
    pollIntervalMs: typeof poll === 'number' && Number.isFinite(poll) ? poll : null,
    inputRequests: asObject(own(src, 'inputRequests')),
    result: own(src, 'result'),
    error: own(src, 'error'),
  };
}

/** `params.taskId` of a tasks/* request, when it is a string. */
export function taskIdOf(params: Record<string, unknown> | undefined): string | null {
  const id = own(params, 'taskId');
  return typeof id === 'string' ? id : null;
}

/** The request declared the tasks extension in its own `clientCapabilities`. */
export function declaresTasks(capabilities: Record<string, unknown> | undefined): boolean {
  return asObject(own(asObject(own(capabilities, 'extensions')), TASKS_EXTENSION)) !== undefined
    || own(asObject(own(capabilities, 'extensions')), TASKS_EXTENSION) === true;
}
