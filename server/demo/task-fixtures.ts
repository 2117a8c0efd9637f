// The demo's tasks extension serving the fixture tools the official conformance suite's
// task scenarios call (greet, slow_compute, failing_job, protocol_error_job,
// confirm_delete, multi_input, test_tool_with_task), switched on per request with
// ?fixtures=conformance, so `npm test` can run the suite against the demo's task serving
// and lint what went over the wire. Answers are plain JSON, as task-front.ts answers.
//
// Tasks here advance by time (a fixture's `seconds`), not by polls as research_report's
// script does: the suite polls every 200 ms and waits for a terminal status.
import { TASKS_EXTENSION, declaresTasks, obj, readJsonPost, reply } from './task-front.js';

type Json = Record<string, unknown>;
type RpcId = string | number | null;
type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TTL_MS = 600_000;
// The suite polls 200 ms apart: the interval asked is one it keeps.
const POLL_INTERVAL_MS = 200;
const MAX_TASKS = 500;

interface FixtureTask {
  taskId: string;
  tool: string;
  status: Status;
  createdAt: string;
  lastUpdatedAt: string;
  readyAt: number;
  outstanding: Record<string, Json>;
  answers: Record<string, unknown>;
  label: string;
  result?: Json;
  error?: Json;
}

const form = (message: string, properties: Json, required: string[]): Json =>
  ({ method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties, required } } });
const text = (t: string, isError = false): Json => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) });

const TOOLS: Json[] = [
  { name: 'greet', description: 'Sync only: says hello', inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, execution: { taskSupport: 'forbidden' } },
  { name: 'slow_compute', description: 'Task-supporting: sleeps `seconds`, then answers', inputSchema: { type: 'object', properties: { seconds: { type: 'number' }, label: { type: 'string' } } }, execution: { taskSupport: 'optional' } },
  { name: 'failing_job', description: 'Task-required: ends with a tool error after about a second', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
  { name: 'protocol_error_job', description: 'Task-supporting: fails with a protocol error', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
  { name: 'confirm_delete', description: 'Task-supporting: asks one question through tasks/get', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
  { name: 'multi_input', description: 'Task-supporting: asks two questions at once', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
  { name: 'test_tool_with_task', description: 'Task-required: asks user_name through MRTR, then runs as a task', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
];
const TASK_REQUIRED = new Set(['failing_job', 'test_tool_with_task']);
const NAMES = new Set(TOOLS.map((t) => t.name as string));

/** The fixture tasks, by id (bounded; the oldest goes first). */
export class FixtureTable {
  readonly tasks = new Map<string, FixtureTask>();
  add(t: FixtureTask): void {
    this.tasks.set(t.taskId, t);
    if (this.tasks.size > MAX_TASKS) this.tasks.delete(this.tasks.keys().next().value as string);
  }
}

/** The request asks for the conformance fixtures (`?fixtures=conformance`). */
export function wantsFixtures(req: Request): boolean {
  return new URL(req.url).searchParams.get('fixtures') === 'conformance';
}

const ok = (id: RpcId, result: Json) => reply(id, { result: { resultType: 'complete', ...result } });
const fail = (id: RpcId, code: number, message: string, status = 200, data?: unknown) => reply(id, { error: { code, message, ...(data !== undefined ? { data } : {}) } }, status);

/** The header a request carries, decoded from `=?base64?…?=` and trimmed (RFC 9110 §5.5). */
function headerValue(req: Request, name: string): string | null {
  const raw = req.headers.get(name);
  if (raw === null) return null;
  const v = raw.trim();
  const m = /^=\?base64\?(.*)\?=$/.exec(v);
  return m ? Buffer.from(m[1], 'base64').toString('utf8') : v;
}

function fields(t: FixtureTask): Json {
  return { taskId: t.taskId, status: t.status, createdAt: t.createdAt, lastUpdatedAt: t.lastUpdatedAt, ttlMs: TTL_MS, pollIntervalMs: POLL_INTERVAL_MS };
}

function setStatus(t: FixtureTask, status: Status): void {
  if (t.status !== status) t.lastUpdatedAt = new Date().toISOString();
  t.status = status;
}

function create(tool: string, args: Json, answers: Record<string, unknown> = {}): FixtureTask {
  const at = new Date().toISOString();
  const seconds = typeof args.seconds === 'number' && args.seconds >= 0 ? args.seconds : tool === 'failing_job' ? 1 : 0;
  return { taskId: `fx-${crypto.randomUUID()}`, tool, status: 'working', createdAt: at, lastUpdatedAt: at, readyAt: Date.now() + seconds * 1000, outstanding: {}, answers, label: String(args.label ?? '') };
}

// Moves a task on: asks its questions, or ends once its time has come and nothing is asked.
function advance(t: FixtureTask): void {
  if (t.status === 'completed' || t.status === 'failed' || t.status === 'cancelled') return;
  if (t.tool === 'confirm_delete' && !('confirm' in t.answers) && !('confirm' in t.outstanding)) {
    t.outstanding = { confirm: form('Delete the file?', { confirm: { type: 'boolean' } }, ['confirm']) };
  } else if (t.tool === 'multi_input' && Object.keys(t.answers).length === 0 && Object.keys(t.outstanding).length === 0) {
    t.outstanding = { first: form('First value?', { value: { type: 'string' } }, ['value']), second: form('Second value?', { value: { type: 'string' } }, ['value']) };
  }
  if (Object.keys(t.outstanding).length > 0) return setStatus(t, 'input_required');
  if (Date.now() < t.readyAt) return setStatus(t, 'working');
  if (t.tool === 'protocol_error_job') {
    t.error = { code: -32603, message: 'protocol_error_job failed inside the server' };
    return setStatus(t, 'failed');
  }
  t.result = t.tool === 'failing_job' ? text('failing_job: the job reported an error', true)
    : t.tool === 'test_tool_with_task' ? text(`Hello, ${String(t.answers.user_name ?? 'stranger')}!`)
    : text(`${t.tool} done${t.label ? `: ${t.label}` : ''}`);
  setStatus(t, 'completed');
}

function detailed(t: FixtureTask): Json {
  advance(t);
  return {
    ...fields(t),
    ...(t.status === 'input_required' ? { inputRequests: { ...t.outstanding } } : {}),
    ...(t.status === 'completed' && t.result ? { result: t.result } : {}),
    ...(t.status === 'failed' && t.error ? { error: t.error } : {}),
  };
}

const missing = (id: RpcId, message: string) => fail(id, -32021, message, 400, { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });

async function callTool(id: RpcId, params: Json, table: FixtureTable): Promise<Response> {
  const name = String(params.name);
  const args = obj(params.arguments) ?? {};
  const declared = declaresTasks(params);
  if (name === 'greet') return ok(id, text(`Hello, ${String(args.name ?? 'world')}!`));
  if (!declared && TASK_REQUIRED.has(name)) return missing(id, `Tool '${name}' runs only as a task: declare the ${TASKS_EXTENSION} extension in clientCapabilities`);
  if (!declared) {
    // Task-supporting tools run synchronously for a client without the extension.
    const seconds = typeof args.seconds === 'number' ? Math.min(args.seconds, 5) : 0;
    if (seconds > 0) await new Promise((r) => setTimeout(r, seconds * 1000));
    if (name === 'protocol_error_job') return fail(id, -32603, 'protocol_error_job failed inside the server');
    if (name === 'confirm_delete' || name === 'multi_input') return ok(id, text(`${name} needs input: run it as a task`, true));
    return ok(id, text(`${name} done${args.label !== undefined ? `: ${String(args.label)}` : ''}`));
  }
  const answers: Record<string, unknown> = {};
  if (name === 'test_tool_with_task') {
    // MRTR first (the extension's recommended pattern): the name, then the task.
    const given = obj(obj(params.inputResponses)?.user_name);
    const userName = obj(given?.content)?.name;
    if (params.requestState !== 'ask-user-name' || given?.action !== 'accept' || typeof userName !== 'string') {
      return ok(id, { resultType: 'input_required', requestState: 'ask-user-name', inputRequests: { user_name: form('What is your name?', { name: { type: 'string' } }, ['name']) } });
    }
    answers.user_name = userName;
  }
  const t = create(name, args, answers);
  table.add(t);
  return reply(id, { result: { resultType: 'task', ...fields(t) } });
}

function taskMethod(id: RpcId, method: string, params: Json, t: FixtureTask): Response {
  if (method === 'tasks/get') return ok(id, detailed(t));
  if (method === 'tasks/update') {
    const responses = obj(params.inputResponses);
    if (!responses) return fail(id, -32602, 'tasks/update needs inputResponses (an object keyed like inputRequests)');
    for (const [k, v] of Object.entries(responses)) {
      // Keys not outstanding are ignored, as the extension advises.
      if (!(k in t.outstanding)) continue;
      delete t.outstanding[k];
      t.answers[k] = v;
    }
    if (t.status === 'input_required' && Object.keys(t.outstanding).length === 0) setStatus(t, 'working');
    return ok(id, {});
  }
  if (t.status !== 'completed' && t.status !== 'failed' && t.status !== 'cancelled') {
    t.outstanding = {};
    setStatus(t, 'cancelled');
  }
  return ok(id, {});
}

/** Answers a fixture request, or undefined to let the demo's SDK server serve it. */
export async function serveFixtures(req: Request, table: FixtureTable): Promise<Response | undefined> {
  const msg = await readJsonPost(req);
  const method = typeof msg?.method === 'string' ? msg.method : undefined;
  const params = obj(msg?.params) ?? {};
  const id = (msg?.id ?? null) as RpcId;
  if (!msg || msg.id === undefined || method === undefined) return undefined;
  const isTask = method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel';
  if (method !== 'tools/list' && !isTask && !(method === 'tools/call' && NAMES.has(String(params.name)))) return undefined;

  // Mcp-Method mirrors the method; Mcp-Name the tool name or the taskId (SEP-2243, tasks:509-511).
  const wantName = isTask ? params.taskId : method === 'tools/call' ? params.name : undefined;
  if (headerValue(req, 'mcp-method') !== method) return fail(id, -32020, 'Bad Request: Mcp-Method must equal the body method', 400, { mismatch: 'Mcp-Method' });
  if (typeof wantName === 'string' && headerValue(req, 'mcp-name') !== wantName) return fail(id, -32020, `Bad Request: Mcp-Name must equal params.${isTask ? 'taskId' : 'name'}`, 400, { mismatch: 'Mcp-Name' });

  if (method === 'tools/list') return ok(id, { tools: TOOLS });
  if (method === 'tools/call') return callTool(id, params, table);
  if (!declaresTasks(params)) return missing(id, `${method} needs the ${TASKS_EXTENSION} extension declared in clientCapabilities`);
  const t = typeof params.taskId === 'string' ? table.tasks.get(params.taskId) : undefined;
  if (!t) return fail(id, -32602, `Unknown taskId: ${JSON.stringify(params.taskId ?? null)}`);
  return taskMethod(id, method, params, t);
}
