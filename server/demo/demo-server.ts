import { McpServer } from '@modelcontextprotocol/server';
import { createSignedStateStore, createUnsignedStateStore, type SpentTokens } from './state.js';
import { registerConfirmAction, registerListWorkspace, registerOpenDashboard, registerSummarize, type DemoToolDeps } from './tools-input.js';
import { registerBusy, registerResearchReport, registerSetupWizard, registerSlowReport } from './tools-rounds.js';
import { TASKS_EXTENSION } from './task-front.js';
import { registerReviewPrompt, registerSecretNote } from './prompt-resource.js';

// Server name the demo reports in server/discover and initialize.
export const DEMO_SERVER_INFO = { name: 'mrtr-inspector-demo', version: '0.1.0' };

// Builds one fresh demo McpServer (createMcpHandler asks for one per HTTP request).
export function createDemoServer(opts: { misbehave: boolean; spent?: SpentTokens }): McpServer {
  const store = opts.misbehave ? createUnsignedStateStore() : createSignedStateStore(opts.spent);
  const server = new McpServer(DEMO_SERVER_INFO, {
    // The tasks extension is served in front of the SDK (task-front.ts); discover says so.
    capabilities: { logging: {}, extensions: { [TASKS_EXTENSION]: {} } },
    // The misbehaving server verifies nothing; its handlers decode the raw string.
    ...(store.verify ? { requestState: { verify: store.verify } } : {}),
  });
  const deps: DemoToolDeps = { store, misbehave: opts.misbehave };
  registerConfirmAction(server, deps);
  registerOpenDashboard(server, deps);
  registerSummarize(server, deps);
  registerListWorkspace(server, deps);
  registerSetupWizard(server, deps);
  registerBusy(server, deps);
  registerSlowReport(server);
  registerResearchReport(server);
  registerReviewPrompt(server, deps);
  registerSecretNote(server, deps);
  return server;
}
