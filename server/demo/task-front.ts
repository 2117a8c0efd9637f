// The tasks extension in front of the SDK handler. @modelcontextprotocol/server 2.4.0 has
// no server side for 2026-07-28 tasks (it only checks Mcp-Name on tasks/*), and
// @modelcontextprotocol/ext-tasks 0.2.2 ships a client and a 2025-11-25 receiver only, so
// the demo serves tasks/get, tasks/update, tasks/cancel and the task tool's tools/call
// itself, and passes every other request through to the SDK.
//
// Hazard: the task table outlives requests (the SDK builds a server per request), and any
// caller can reach the demo without a token, so it belongs to the handler and is bounded in
// bytes, not only in count: answers are capped, finished tasks are dropped oldest first to
// make room, and when only running tasks fill it a new one is refused with an error saying so
// (130 tasks with 15 MB answers once took the inspector past its heap).
import { cancelTask, createTask, isTerminal, pollTask, taskFields, updateTask, TASK_TOOL, type DemoTask } from './task-lifecycle.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CAPS_KEY = 'io.modelcontextprotocol/clientCapabilities';
const MAX_TASKS = 500;
/** The most JSON one tasks/update's inputResponses may hold (a topic, a short draft). */
export const MAX_TASK_ANSWER_BYTES = 64 * 1024;
/** The most the task table holds, all tasks together (JSON size). */
export const TASK_TABLE_BYTES = 16 * 1024 * 1024;

type Json = Record<string, unknown>;
type RpcId = string | number | null;

/** The tasks the demo is running, by id, within a count and a byte budget. */
export class TaskTable {
  readonly #tasks = new Map<string, { task: DemoTask; bytes: number }>();
  #total = 0;
  constructor(readonly budget = TASK_TABLE_BYTES, readonly maxTasks = MAX_TASKS) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.#total;
  }

  /** Makes room for `extra` more bytes (and one more task when `adding`), dropping the
   *  oldest finished tasks; false when running tasks alone leave no room. */
  room(extra: number, adding = false): boolean {
    const fits = () => this.#total + extra <= this.budget && (!adding || this.#tasks.size < this.maxTasks);
    for (const [id, e] of this.#tasks) {
      if (fits()) break;
      if (isTerminal(e.task.status)) this.#drop(id);
    }
    return fits();
  }

  /** Adds a task (call room first); its size is measured now and after each change (`measure`). */
  add(t: DemoTask): void {
    this.#tasks.set(t.taskId, { task: t, bytes: 0 });
    this.measure(t);
  }

  /** Re-counts a task's bytes after it changed. */
  measure(t: DemoTask): void {
    const e = this.#tasks.get(t.taskId);
    if (!e) return;
    const bytes = JSON.stringify(t).length;
    this.#total += bytes - e.bytes;
    e.bytes = bytes;
  }

  get(id: string): DemoTask | undefined {
    return this.#tasks.get(id)?.task;
  }

  #drop(id: string): void {
    this.#total -= this.#tasks.get(id)?.bytes ?? 0;
    this.#tasks.delete(id);
  }
}

const full = (id: RpcId, table: TaskTable) =>
  reply(id, { error: { code: -32000, message: `The demo holds all the tasks it may (${table.maxTasks} tasks or ${table.budget} bytes) and they are all still running: cancel some (tasks/cancel) or let them finish, then retry.` } }, 503);

/** `v` when it is a plain JSON object, else undefined. */
export function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/** A POST's body as a JSON object, or undefined (not a POST, not JSON, not an object). The body is read from a clone, so the SDK handler can still read it. */
export async function readJsonPost(req: Request): Promise<Json | undefined> {
  if (req.method !== 'POST') return undefined;
  try {
    return obj(JSON.parse(await req.clone().text()));
  } catch {
    return undefined;
  }
}

/** Whether a request's own envelope declares the tasks extension (tasks:23-63). */
export function declaresTasks(params: Json | undefined): boolean {
  const caps = obj(obj(params?._meta)?.[CAPS_KEY]);
  return obj(caps?.extensions)?.[TASKS_EXTENSION] !== undefined;
}

/** A JSON-RPC answer as an HTTP response. */
export function reply(id: RpcId, body: { result: Json } | { error: Json }, status = 200): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, ...body }), { status, headers: { 'content-type': 'application/json' } });
}

const invalid = (id: RpcId, message: string) => reply(id, { error: { code: -32602, message } });

/**
 * Answers a task request, or undefined to let the SDK handler serve it. `misbehave`
 * switches on the rule breaks (see task-lifecycle.ts) and skips the header checks.
 */
export async function serveTask(req: Request, table: TaskTable, misbehave: boolean, now: () => Date = () => new Date()): Promise<Response | undefined> {
  const msg = await readJsonPost(req);
  const method = msg?.method;
  const params = obj(msg?.params);
  const id = (msg?.id ?? null) as RpcId;
  const isTaskMethod = method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel';
  const isTaskCall = method === 'tools/call' && params?.name === TASK_TOOL;
  if (!msg || msg.id === undefined || (!isTaskMethod && !isTaskCall)) return undefined;

  if (!declaresTasks(params)) {
    const message = isTaskCall ? `Tool '${TASK_TOOL}' runs only as a task: declare the ${TASKS_EXTENSION} extension in clientCapabilities` : `${String(method)} needs the ${TASKS_EXTENSION} extension declared in clientCapabilities`;
    return reply(id, { error: { code: -32021, message, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } } }, 400);
  }
  if (isTaskCall) {
    const t = createTask(`task-${crypto.randomUUID()}`, misbehave, now());
    if (!table.room(JSON.stringify(t).length, true)) return full(id, table);
    table.add(t);
    return reply(id, { result: { resultType: 'task', ...taskFields(t) } });
  }

  const taskId = params?.taskId;
  // As the SDK's header rung does for the methods it knows: Mcp-Name mirrors params.taskId.
  if (!misbehave && typeof taskId === 'string' && req.headers.get('mcp-name') !== taskId) {
    return reply(id, { error: { code: -32020, message: 'Bad Request: the request headers and body disagree: Mcp-Name must equal params.taskId', data: { mismatch: 'Mcp-Name' } } }, 400);
  }
  const t = typeof taskId === 'string' ? table.get(taskId) : undefined;
  if (!t) return invalid(id, `Unknown taskId: ${JSON.stringify(taskId ?? null)}`);
  if (method === 'tasks/get') {
    const detail = pollTask(t, now());
    table.measure(t);
    return reply(id, { result: { ...detail, resultType: t.misbehave ? 'task' : 'complete' } });
  }
  if (method === 'tasks/update') {
    const responses = obj(params?.inputResponses);
    if (!responses) return invalid(id, 'tasks/update needs inputResponses (an object keyed like inputRequests)');
    const size = JSON.stringify(responses).length;
    if (size > MAX_TASK_ANSWER_BYTES) return invalid(id, `inputResponses is ${size} bytes of JSON; the demo takes at most ${MAX_TASK_ANSWER_BYTES} per tasks/update.`);
    // An answer may be quoted again in the next question and in the result.
    if (!table.room(3 * size)) return full(id, table);
    updateTask(t, responses, now());
    table.measure(t);
    return reply(id, { result: { resultType: 'complete' } });
  }
  if (!isTerminal(t.status)) cancelTask(t, now());
  table.measure(t);
  return reply(id, { result: { resultType: 'complete' } });
}
