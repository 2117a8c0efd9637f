// A 2025-11-25 stdio server shaped like the reference server-everything (SDK 1.32): its
// sampling and elicitation tools ask the client with `extra.sendRequest`, which over stdio
// puts nothing on the wire that names the call (the SDK's `relatedRequestId` only picks an
// HTTP stream). `echo` and `add` answer at once.
// Run: npx tsx test/peers/stdio/everything-like-server.ts
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const server = new McpServer({ name: 'everything-like', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes the message', inputSchema: { message: z.string() } }, async ({ message }) => ({
  content: [{ type: 'text', text: `Echo: ${message}` }],
}));
server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
  content: [{ type: 'text', text: `The sum of ${a} and ${b} is ${a + b}.` }],
}));
server.registerTool('sampleLLM', { description: 'Samples from the client\'s model', inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
  const r = await extra.sendRequest(
    { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: `Resource sampleLLM context: ${prompt}` } }], systemPrompt: 'You are a helpful test server.', maxTokens: 100, temperature: 0.7, includeContext: 'thisServer' } },
    CreateMessageResultSchema,
  );
  return { content: [{ type: 'text', text: `LLM sampling result: ${r.content.type === 'text' ? r.content.text : ''}` }] };
});
server.registerTool('startElicitation', { description: 'Asks the user for preferences' }, async (extra) => {
  const r = await extra.sendRequest(
    { method: 'elicitation/create', params: { message: 'What are your favorite things?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } } } } },
    ElicitResultSchema,
  );
  return { content: [{ type: 'text', text: `User ${r.action}ed: ${JSON.stringify(r.content ?? {})}` }] };
});

await server.connect(new StdioServerTransport());
