import { inputRequired, inputResponse, type McpServer } from '@modelcontextprotocol/server';
import { stateFor, missingAnswer, type DemoToolDeps } from './tools-input.js';

// The resource whose read asks first; exported so tests and docs name it once.
export const SECRET_NOTE_URI = 'demo://secret-note';

const reviewSchema = {
  type: 'object' as const,
  properties: {
    focus: { type: 'string' as const, title: 'What should the review focus on?', default: 'readability' },
    strictness: { type: 'string' as const, title: 'Strictness', enum: ['gentle', 'normal', 'harsh'] },
  },
  required: ['strictness'],
};

// review_prompt: prompts/get asks how strict the review should be before building it.
export function registerReviewPrompt(server: McpServer, deps: DemoToolDeps): void {
  server.registerPrompt('review_prompt', { description: 'A code review prompt that asks for its tone first' }, async (ctx) => {
    const ask = async () =>
      inputRequired({
        inputRequests: { style: inputRequired.elicit({ message: 'How should the review read?', requestedSchema: reviewSchema }) },
        requestState: await deps.store.mint({ tool: 'review_prompt', step: 1, answers: {} }, ctx),
      });
    if (!stateFor(deps, ctx, 'review_prompt')) return ask();
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'style');
    if (answer.kind !== 'elicit') {
      missingAnswer(deps, 'style');
      return ask();
    }
    const focus = String(answer.content?.focus ?? 'readability');
    const strictness = String(answer.content?.strictness ?? 'normal');
    return {
      description: `A ${strictness} review focused on ${focus}`,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Review the attached code. Be ${strictness}; focus on ${focus}.` } }],
    };
  });
}

// demo://secret-note: resources/read asks the user why they want it before answering.
export function registerSecretNote(server: McpServer, deps: DemoToolDeps): void {
  server.registerResource('secret-note', SECRET_NOTE_URI, { description: 'A note that asks before it is read', mimeType: 'text/plain' }, async (uri, ctx) => {
    const ask = async () =>
      inputRequired({
        inputRequests: {
          reason: inputRequired.elicit({
            message: 'Why do you want to read the note?',
            requestedSchema: { type: 'object', properties: { reason: { type: 'string', title: 'Reason', default: 'curiosity' } }, required: ['reason'] },
          }),
        },
        requestState: await deps.store.mint({ tool: 'secret-note', step: 1, answers: {} }, ctx),
      });
    if (!stateFor(deps, ctx, 'secret-note')) return ask();
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'reason');
    if (answer.kind !== 'elicit') {
      missingAnswer(deps, 'reason');
      return ask();
    }
    const body = answer.action === 'accept' ? `The note says: the demo key is public. (You asked because: ${String(answer.content?.reason ?? '?')}.)` : 'You chose not to read the note.';
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: body }] };
  });
}
