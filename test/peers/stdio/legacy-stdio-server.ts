// The 2025-11-25 peer server (@modelcontextprotocol/sdk 1.32) over stdio: its tools send real
// server-to-client requests (elicitation/create, sampling/createMessage) on the pipe.
// Run: npx tsx test/peers/stdio/legacy-stdio-server.ts
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLegacyServer } from '../legacy-server.js';

await createLegacyServer().connect(new StdioServerTransport());
