import {
  fromJsonSchema,
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { DemoState, DemoStateStore } from './state.js';

// What every tool module needs: where tokens come from, and whether to break the rules.
export interface DemoToolDeps {
  store: DemoStateStore;
  misbehave: boolean;
}

type ToolReply = CallToolResult | InputRequiredResult;

// A plain text tool result.
export function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

// The state this tool minted earlier, or undefined on a first round (or a foreign token,
// which the signed store has already refused through its bind check).
export function stateFor(deps: DemoToolDeps, ctx: ServerContext, tool: string): DemoState | undefined {
  const state = deps.store.read(ctx);
  return state && state.tool === tool ? state : undefined;
}

// Misbehaving servers answer a retry that lacks an answer with an error instead of asking
// again (mrtr/server-errors-on-missing). McpServer turns a tool's throw into an isError
// result; prompts/get and resources/read surface it as a JSON-RPC -32602 error.
export function missingAnswer(deps: DemoToolDeps, key: string): void {
  if (deps.misbehave) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Missing input response '${key}'`);
}

const confirmSchema = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: 'Go ahead?', description: 'Run the action now' },
    priority: { type: 'string' as const, title: 'Priority', enum: ['low', 'normal', 'high'] },
    note: { type: 'string' as const, title: 'Note', default: 'none' },
  },
  required: ['confirm', 'priority'],
};

// confirm_action: one form elicitation (boolean + enum + string with a default). What is
// done is the action the question named, carried in the token: the user confirmed that one.
// So the token drives the outcome, and the misbehaving store's forgeable token is a real
// breach (a changed action gets done), not a harmless one.
export function registerConfirmAction(server: McpServer, deps: DemoToolDeps): void {
  const inputSchema = fromJsonSchema<{ action: string }>({
    type: 'object',
    properties: { action: { type: 'string', description: 'What to confirm' } },
    required: ['action'],
  });
  server.registerTool('confirm_action', { description: 'Asks for a confirmation form before acting', inputSchema }, async ({ action }, ctx): Promise<ToolReply> => {
    const ask = async (): Promise<ToolReply> =>
      inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: `Confirm "${action}"?`, requestedSchema: confirmSchema }) },
        requestState: await deps.store.mint({ tool: 'confirm_action', step: 1, answers: { action } }, ctx),
      });
    const state = stateFor(deps, ctx, 'confirm_action');
    if (!state) return ask();
    const confirmed = typeof state.answers.action === 'string' ? state.answers.action : action;
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
    if (answer.kind !== 'elicit') {
      missingAnswer(deps, 'confirm');
      return ask();
    }
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return text(`"${confirmed}" was not confirmed (${answer.action}).`);
    const { priority, note } = answer.content;
    return text(`Done: "${confirmed}" at ${String(priority)} priority (note: ${String(note ?? 'none')}).`);
  });
}

// open_dashboard: a URL-mode elicitation; the user visits a page out of band.
export function registerOpenDashboard(server: McpServer, deps: DemoToolDeps): void {
  server.registerTool('open_dashboard', { description: 'Sends the user to a web page (URL elicitation)' }, async (ctx): Promise<ToolReply> => {
    const ask = async (): Promise<ToolReply> =>
      inputRequired({
        inputRequests: {
          dashboard: inputRequired.elicitUrl({ message: 'Open the demo dashboard to continue', url: 'https://example.com/mrtr-demo/dashboard' }),
        },
        requestState: await deps.store.mint({ tool: 'open_dashboard', step: 1, answers: {} }, ctx),
      });
    if (!stateFor(deps, ctx, 'open_dashboard')) return ask();
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'dashboard');
    if (answer.kind !== 'elicit') {
      missingAnswer(deps, 'dashboard');
      return ask();
    }
    return text(answer.action === 'accept' ? 'The dashboard was opened.' : `The dashboard was not opened (${answer.action}).`);
  });
}

// summarize: asks the client's model for a summary (sampling/createMessage).
export function registerSummarize(server: McpServer, deps: DemoToolDeps): void {
  const inputSchema = fromJsonSchema<{ text: string }>({
    type: 'object',
    properties: { text: { type: 'string', description: 'Text to summarize' } },
    required: ['text'],
  });
  server.registerTool('summarize', { description: 'Summarizes text with the client model (sampling)', inputSchema }, async (args, ctx): Promise<ToolReply> => {
    const ask = async (): Promise<ToolReply> =>
      inputRequired({
        inputRequests: {
          summary: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Summarize in one sentence:\n\n${args.text}` } }],
            maxTokens: 200,
            // Sampling with tools needs the client's sampling.tools capability; the
            // misbehaving server asks for it regardless (mrtr/input-request-undeclared).
            ...(deps.misbehave ? { tools: [{ name: 'lookup', inputSchema: { type: 'object' as const } }] } : {}),
          }),
        },
        requestState: await deps.store.mint({ tool: 'summarize', step: 1, answers: {} }, ctx),
      });
    if (!stateFor(deps, ctx, 'summarize')) return ask();
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'summary');
    if (answer.kind !== 'sampling') {
      missingAnswer(deps, 'summary');
      return ask();
    }
    const content = Array.isArray(answer.result.content) ? answer.result.content[0] : answer.result.content;
    return text(content && content.type === 'text' ? `Summary: ${content.text}` : 'The model answered without text.');
  });
}

// list_workspace: asks the client for its roots (roots/list).
export function registerListWorkspace(server: McpServer, deps: DemoToolDeps): void {
  server.registerTool('list_workspace', { description: "Lists the client's workspace roots (roots/list)" }, async (ctx): Promise<ToolReply> => {
    const ask = async (): Promise<ToolReply> =>
      inputRequired({
        inputRequests: { roots: inputRequired.listRoots() },
        requestState: await deps.store.mint({ tool: 'list_workspace', step: 1, answers: {} }, ctx),
      });
    if (!stateFor(deps, ctx, 'list_workspace')) return ask();
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (answer.kind !== 'roots') {
      missingAnswer(deps, 'roots');
      return ask();
    }
    const lines = answer.roots.map((root) => `- ${root.name ?? root.uri} (${root.uri})`);
    return text(lines.length ? `Workspace roots:\n${lines.join('\n')}` : 'The client shares no roots.');
  });
}
