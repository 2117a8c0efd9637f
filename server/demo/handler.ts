import { createMcpHandler } from '@modelcontextprotocol/server';
import { createDemoServer } from './demo-server.js';
import { SpentTokens } from './state.js';
import { wantsMisbehave, widenDeclaredCapabilities, withSessionHeader } from './misbehave.js';
import { serveTask, TaskTable } from './task-front.js';
import { FixtureTable, serveFixtures, wantsFixtures } from './task-fixtures.js';

// Options for the embedded demo; misbehave can also be switched on per request with ?misbehave=1.
export interface DemoHandlerOptions {
  misbehave?: boolean;
}

// The web-standard face the Vite plugin (and the test peers) mount at /demo/mcp.
export interface DemoHandler {
  fetch(req: Request): Promise<Response>;
  close(): Promise<void>;
}

// Creates the embedded demo MCP server: stateless 2026-07-28 Streamable HTTP via the
// official SDK, with HMAC-signed tokens under DEMO_STATE_KEY unless misbehaving.
export function createDemoHandler(opts: DemoHandlerOptions = {}): DemoHandler {
  // The factory runs per request and sees that request, so one handler serves both modes.
  // The spent-token set outlives requests: it is what makes each token single use.
  const spent = new SpentTokens();
  const mcp = createMcpHandler(
    ({ requestInfo }) => createDemoServer({ spent, misbehave: opts.misbehave === true || (requestInfo !== undefined && wantsMisbehave(requestInfo)) }),
    // No keep-alive comment frames: demo streams are short, and recordings stay comparable.
    { responseMode: 'auto', keepAliveMs: 0 },
  );
  const sessionId = `demo-${crypto.randomUUID()}`;
  // Tasks outlive requests, like spent tokens; the task tool and tasks/* are served in front.
  const tasks = new TaskTable();
  const fixtures = new FixtureTable();
  return {
    async fetch(req) {
      // The conformance suite's task fixtures (?fixtures=conformance); the rest is the demo.
      if (wantsFixtures(req)) return (await serveFixtures(req, fixtures)) ?? mcp.fetch(req);
      const misbehave = opts.misbehave === true || wantsMisbehave(req);
      const task = await serveTask(req, tasks, misbehave);
      if (!misbehave) return task ?? mcp.fetch(req);
      const res = task ?? (await mcp.fetch(await widenDeclaredCapabilities(req)));
      return withSessionHeader(res, req.headers.get('mcp-session-id') ?? sessionId);
    },
    close: () => mcp.close(),
  };
}
