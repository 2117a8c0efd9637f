// Two tools with the same unverified requestState (plain text `note:<words>`, no MAC), told
// apart only by whether the state drives the answer, so a test can show both sides of M11
// (mrtr:232-233): protection is a MUST only where the state influences what the server does.
//   inert_note   takes any requestState it is sent and answers the same constant: a changed
//                or truncated token is accepted and changes nothing (as the conformance
//                suite's MRTR scenario server does)
//   quoted_note  reads its note from the state and quotes it in the answer: a changed or
//                truncated token is accepted and changes the answer (a real breach)
import { McpServer, fromJsonSchema, inputRequired, inputResponse, type ServerContext } from '@modelcontextprotocol/server';
import { serveSdkServer, type RunningDemo } from './serve-demo.js';

/** The state both tools issue: readable text whose middle byte is data. */
export const NOTE_STATE = 'note:carried between rounds';

const itemSchema = { type: 'object' as const, properties: { item: { type: 'string' as const, minLength: 1 } }, required: ['item'] };
const noArgs = fromJsonSchema<Record<string, never>>({ type: 'object', properties: {} });
const readOnly = { readOnlyHint: true };
const stateOf = (ctx: ServerContext) => ctx.mcpReq.requestState<string>();
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const ask = () => inputRequired({ inputRequests: { item: inputRequired.elicit({ message: 'Which item?', requestedSchema: itemSchema }) }, requestState: NOTE_STATE });
const answered = (ctx: ServerContext) => {
  const a = inputResponse(ctx.mcpReq.inputResponses, 'item');
  return a.kind === 'elicit' && a.action === 'accept' ? String(a.content?.item ?? '') : undefined;
};

function register(server: McpServer): void {
  server.registerTool('inert_note', { description: 'Unverified state that never changes the answer', inputSchema: noArgs, annotations: readOnly }, async (_args, ctx) => {
    if (typeof stateOf(ctx) !== 'string' || answered(ctx) === undefined) return ask();
    return text('Noted.');
  });

  server.registerTool('quoted_note', { description: 'Unverified state quoted in the answer', inputSchema: noArgs, annotations: readOnly }, async (_args, ctx) => {
    const state = stateOf(ctx);
    const item = answered(ctx);
    if (typeof state !== 'string' || !state.startsWith('note:') || item === undefined) return ask();
    return text(`Noted ${item} (${state.slice('note:'.length)})`);
  });
}

/** Serves both tools on 127.0.0.1 at a random port. */
export function serveUnverifiedStateServer(): Promise<RunningDemo> {
  const factory = () => {
    const server = new McpServer({ name: 'check-unverified-state', version: '1.0.0' });
    register(server);
    return server;
  };
  return serveSdkServer(factory);
}
