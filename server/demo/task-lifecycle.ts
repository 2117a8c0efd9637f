// The demo's task tool as a pure state machine (no HTTP): `research_report` runs as a task
// of the tasks extension and asks two questions over its lifetime, a form elicitation and
// then a sampling request, each through tasks/get (input_required) and tasks/update.
// The task advances when it is polled, never on a timer, so every run (the Console's, the
// recorded peer's, the tests') takes the same steps.
//
// Misbehaving tasks break three rules on purpose: the second question re-uses the first
// one's key after its answer was delivered, tasks/get results say `resultType: "task"`,
// and a completed task reports `working` once more on the poll after it finished.

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** An embedded input request, as tasks/get carries it in `inputRequests`. */
export interface TaskInputRequest {
  method: string;
  params: Record<string, unknown>;
}

/** One task the demo is running. */
export interface DemoTask {
  taskId: string;
  status: TaskStatus;
  createdAt: string;
  lastUpdatedAt: string;
  misbehave: boolean;
  /** Where the script is: see STEPS. */
  step: number;
  outstanding: Record<string, TaskInputRequest>;
  answers: Record<string, unknown>;
  result?: Record<string, unknown>;
  /** The misbehaving task's one report after its end. */
  reportedAfterEnd?: boolean;
}

/** The tool that runs as a task. */
export const TASK_TOOL = 'research_report';
/** How long a finished task is kept, and how often clients should poll. */
export const TASK_TTL_MS = 600_000;
export const TASK_POLL_INTERVAL_MS = 200;

const scopeQuestion: TaskInputRequest = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'What should the report cover?',
    requestedSchema: {
      type: 'object',
      properties: {
        topic: { type: 'string', title: 'Topic', minLength: 1 },
        depth: { type: 'string', title: 'Depth', enum: ['brief', 'detailed'] },
      },
      required: ['topic', 'depth'],
    },
  },
};

function draftQuestion(topic: string): TaskInputRequest {
  return {
    method: 'sampling/createMessage',
    params: {
      messages: [{ role: 'user', content: { type: 'text', text: `Write a two-sentence summary about ${topic}.` } }],
      maxTokens: 200,
    },
  };
}

// The script: even steps ask (or finish), odd steps are one "working" poll after an answer.
// 0: ask `scope` · 1: working · 2: ask `draft` (the misbehaving task asks it as `scope`) ·
// 3: working · 4: completed.
const ASK_SCOPE = 0;
const ASK_DRAFT = 2;
const FINISH = 4;

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a status is terminal. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** A new task, `working`, nothing asked yet. */
export function createTask(taskId: string, misbehave: boolean, now: Date): DemoTask {
  const at = now.toISOString();
  return { taskId, status: 'working', createdAt: at, lastUpdatedAt: at, misbehave, step: ASK_SCOPE, outstanding: {}, answers: {} };
}

/** The `Task` fields every answer about a task carries. */
export function taskFields(t: DemoTask): Record<string, unknown> {
  return { taskId: t.taskId, status: t.status, createdAt: t.createdAt, lastUpdatedAt: t.lastUpdatedAt, ttlMs: TASK_TTL_MS, pollIntervalMs: TASK_POLL_INTERVAL_MS };
}

function set(t: DemoTask, status: TaskStatus, now: Date): void {
  if (t.status !== status) t.lastUpdatedAt = now.toISOString();
  t.status = status;
}

function textResult(text: string, isError = false): Record<string, unknown> {
  return { resultType: 'complete', content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}

/** The key the second question goes under: the misbehaving task re-uses the first one's. */
function draftKey(t: DemoTask): string {
  return t.misbehave ? 'scope' : 'draft';
}

/**
 * A poll: advances the script one step when nothing is outstanding, then returns the
 * DetailedTask (the caller adds `resultType`).
 */
export function pollTask(t: DemoTask, now: Date): Record<string, unknown> {
  if (isTerminal(t.status)) {
    if (t.misbehave && t.status === 'completed' && !t.reportedAfterEnd) {
      t.reportedAfterEnd = true;
      return { ...taskFields(t), status: 'working' };
    }
  } else if (Object.keys(t.outstanding).length === 0) {
    advance(t, now);
  }
  const detail: Record<string, unknown> = taskFields(t);
  if (t.status === 'input_required') detail.inputRequests = { ...t.outstanding };
  if (t.status === 'completed' && t.result) detail.result = t.result;
  return detail;
}

function advance(t: DemoTask, now: Date): void {
  if (t.step === ASK_SCOPE) {
    t.outstanding = { scope: scopeQuestion };
    set(t, 'input_required', now);
  } else if (t.step === ASK_DRAFT) {
    const scope = t.answers.scope as { content?: { topic?: unknown } } | undefined;
    t.outstanding = { [draftKey(t)]: draftQuestion(String(scope?.content?.topic ?? 'the topic')) };
    set(t, 'input_required', now);
  } else if (t.step === FINISH) {
    const scope = (t.answers.scope as { content?: Record<string, unknown> } | undefined)?.content ?? {};
    t.result = textResult(`Report on ${String(scope.topic ?? 'the topic')} (${String(scope.depth ?? 'brief')}) is ready.`);
    set(t, 'completed', now);
  } else {
    // A working step: the next poll asks the next question or finishes.
    t.step += 1;
    set(t, 'working', now);
  }
}

/**
 * tasks/update: answers to outstanding keys are taken; any other key is ignored, as the
 * extension advises servers (never issued, already answered, superseded). A declined or
 * cancelled form ends the task with an `isError` tool result (completed, not failed).
 */
export function updateTask(t: DemoTask, inputResponses: Record<string, unknown>, now: Date): void {
  if (isTerminal(t.status)) return;
  for (const [key, response] of Object.entries(inputResponses)) {
    if (!(key in t.outstanding)) continue;
    delete t.outstanding[key];
    t.answers[t.step === ASK_DRAFT && key === draftKey(t) ? 'draft' : key] = response;
    const action = (response as { action?: unknown } | null)?.action;
    if (t.step === ASK_SCOPE && action !== undefined && action !== 'accept') {
      t.result = textResult(`The report was not written: the scope question was ${String(action)}ed.`, true);
      set(t, 'completed', now);
      return;
    }
  }
  if (Object.keys(t.outstanding).length === 0) {
    t.step += 1;
    set(t, 'working', now);
  }
}

/** tasks/cancel: a running task ends `cancelled`; a finished one stays as it ended. */
export function cancelTask(t: DemoTask, now: Date): void {
  if (isTerminal(t.status)) return;
  t.outstanding = {};
  set(t, 'cancelled', now);
}
