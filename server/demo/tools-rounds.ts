import {
  fromJsonSchema,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  type McpServer,
} from '@modelcontextprotocol/server';
import { stateFor, text, missingAnswer, type DemoToolDeps } from './tools-input.js';
import { TASK_TOOL } from './task-lifecycle.js';
import { TASK_SUPPORT_META } from '../../worker/decode/tool-names.js';
import { TASKS_EXTENSION } from './task-front.js';

type ToolReply = CallToolResult | InputRequiredResult;

const wizardSteps: { key: string; message: string; schema: ElicitRequestFormParams['requestedSchema'] }[] = [
  {
    key: 'name',
    message: 'Step 1 of 3: name your workspace',
    schema: { type: 'object' as const, properties: { name: { type: 'string' as const, title: 'Workspace name', minLength: 1 } }, required: ['name'] },
  },
  {
    key: 'plan',
    message: 'Step 2 of 3: pick a plan',
    schema: { type: 'object' as const, properties: { plan: { type: 'string' as const, title: 'Plan', enum: ['free', 'pro', 'team'] } }, required: ['plan'] },
  },
  {
    key: 'confirm',
    message: 'Step 3 of 3: create it?',
    schema: { type: 'object' as const, properties: { confirm: { type: 'boolean' as const, title: 'Create the workspace' } }, required: ['confirm'] },
  },
];

// setup_wizard: three form rounds (name, plan, confirm); each token carries the answers so far.
export function registerSetupWizard(server: McpServer, deps: DemoToolDeps): void {
  server.registerTool('setup_wizard', { description: 'A three-round wizard; the requestState carries earlier answers' }, async (ctx): Promise<ToolReply> => {
    const state = stateFor(deps, ctx, 'setup_wizard');
    let step = state?.step ?? 0;
    const answers = { ...(state?.answers ?? {}) };
    if (state) {
      const current = wizardSteps[step];
      const answer = inputResponse(ctx.mcpReq.inputResponses, current.key);
      if (answer.kind === 'elicit' && answer.action !== 'accept') return text(`Wizard ${answer.action}ed at step ${step + 1}.`);
      if (answer.kind === 'elicit' && answer.content?.[current.key] !== undefined) {
        answers[current.key] = answer.content[current.key];
        step += 1;
      } else if (deps.misbehave) {
        // Drops the key: carries on as if the answer had come, with nothing recorded.
        step += 1;
      } else {
        missingAnswer(deps, current.key);
      }
    }
    if (step < wizardSteps.length) {
      const next = wizardSteps[step];
      return inputRequired({
        inputRequests: { [next.key]: inputRequired.elicit({ message: next.message, requestedSchema: next.schema }) },
        requestState: await deps.store.mint({ tool: 'setup_wizard', step, answers }, ctx),
      });
    }
    if (answers.confirm !== true && !deps.misbehave) return text('Workspace not created.');
    return text(`Created workspace "${String(answers.name ?? '(unnamed)')}" on the ${String(answers.plan ?? 'free')} plan.`);
  });
}

// busy: two requestState-only rounds (the server asks the client to come back later, as
// under load), then completes. No inputRequests at all, only the token.
export function registerBusy(server: McpServer, deps: DemoToolDeps): void {
  server.registerTool('busy', { description: 'Answers "come back later" twice with only a requestState, then completes' }, async (ctx): Promise<ToolReply> => {
    const polls = stateFor(deps, ctx, 'busy')?.step ?? 0;
    if (polls < 2) return inputRequired({ requestState: await deps.store.mint({ tool: 'busy', step: polls + 1, answers: {} }, ctx) });
    return text(`Finished after ${polls} polls.`);
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// slow_report: streams progress (when the call carries a progressToken) and a log message
// before the result, so the response upgrades to text/event-stream.
export function registerSlowReport(server: McpServer): void {
  const inputSchema = fromJsonSchema<{ steps?: number }>({
    type: 'object',
    properties: { steps: { type: 'integer', minimum: 1, maximum: 10, default: 3 } },
  });
  server.registerTool('slow_report', { description: 'Streams progress and a log line, then the report (SSE)', inputSchema }, async (args, ctx): Promise<CallToolResult> => {
    const steps = args.steps ?? 3;
    const progressToken = ctx.mcpReq._meta?.progressToken;
    // Sent through notify rather than ctx.mcpReq.log: log() stays silent unless the
    // request's envelope names a log level, and the demo wants a stream every time.
    await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', logger: 'slow_report', data: `building a ${steps}-step report` } });
    for (let done = 1; done <= steps; done++) {
      await sleep(40);
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: done, total: steps, message: `step ${done} of ${steps}` } });
      }
    }
    return text(`Report ready: ${steps} steps.`);
  });
}

// research_report: listed here so tools/list shows it, but served by task-front.ts, which
// answers its tools/call with a task when the call declares the tasks extension and with
// -32021 when it does not. This handler is reached only if that front is bypassed. The
// list says it runs only as a task under the inspector's own `_meta` key (tool-names.ts
// says why there is no standard field), so the toolbar offers it as a task at once.
export function registerResearchReport(server: McpServer): void {
  server.registerTool(TASK_TOOL, {
    description: 'Runs as a task (tasks extension): asks a form question, then a sampling question, while it runs',
    _meta: { [TASK_SUPPORT_META]: 'required' },
  }, async (): Promise<CallToolResult> =>
    ({ ...text(`${TASK_TOOL} runs only as a task: declare the ${TASKS_EXTENSION} extension.`), isError: true }));
}
