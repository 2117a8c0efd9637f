import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import { createDemoHandler, type DemoHandlerOptions } from '../../server/demo/handler.js';

// A running demo server on 127.0.0.1 and how to stop it.
export interface RunningDemo {
  url: string;
  close(): Promise<void>;
}

// Serves the embedded demo on node:http at 127.0.0.1:<random>/mcp, behind the SDK's
// localhost Host and Origin guards (DNS-rebinding protection, as a real deployment would).
export function serveDemo(opts: DemoHandlerOptions = {}): Promise<RunningDemo> {
  return serveHandler(createDemoHandler(opts));
}

// Serves a test's own SDK v2 server the same way (`factory` makes one per session),
// answering in JSON with no keep-alive pings.
export function serveSdkServer(factory: () => McpServer): Promise<RunningDemo> {
  return serveHandler(createMcpHandler(factory, { responseMode: 'json', keepAliveMs: 0 }));
}

// Serves any web-standard MCP handler the same way.
export async function serveHandler(handler: { fetch(req: Request): Promise<Response>; close(): Promise<void> }): Promise<RunningDemo> {
  const handle = toNodeHandler(handler);
  const checkHost = localhostHostValidation();
  const checkOrigin = localhostOriginValidation();
  const server: Server = createServer((req, res) => {
    if (!checkHost(req, res) || !checkOrigin(req, res)) return;
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
