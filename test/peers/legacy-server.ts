// The 2025-11-25 peer server (@modelcontextprotocol/sdk 1.32), shared by the HTTP recording
// (record-legacy.ts) and the stdio one (stdio/legacy-stdio-server.ts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

// A legacy McpServer with one tool that elicits and one that samples, both by sending a
// real server-to-client request tied to the call (so it rides the call's SSE stream).
export function createLegacyServer(): McpServer {
  const server = new McpServer({ name: 'legacy-demo', version: '1.0.0' });
  server.registerTool('legacy_confirm', { description: 'Asks for confirmation with elicitation/create' }, async (extra) => {
    const answer = await server.server.elicitInput(
      {
        mode: 'form',
        message: 'Confirm the legacy deploy?',
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Deploy' } }, required: ['confirm'] },
      },
      { relatedRequestId: extra.requestId },
    );
    return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.confirm === true ? 'Deployed.' : `Not deployed (${answer.action}).` }] };
  });
  server.registerTool('legacy_summarize', { description: 'Asks the client model with sampling/createMessage' }, async (extra) => {
    const reply = await server.server.createMessage(
      { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize MCP sessions in one line.' } }], maxTokens: 100 },
      { relatedRequestId: extra.requestId },
    );
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? `Summary: ${reply.content.text}` : 'no text' }] };
  });
  return server;
}

