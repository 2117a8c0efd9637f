// The embedded demo server (official SDK v2, the demo tools, HMAC-signed requestState under
// the demo key) served over stdio, for `mrtr-inspector wrap` to sit in front of.
// Run: npx tsx test/peers/stdio/demo-stdio-server.ts
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createDemoServer } from '../../../server/demo/demo-server.js';

serveStdio(() => createDemoServer({ misbehave: false }), { onerror: (err) => process.stderr.write(`demo-stdio-server: ${err.message}\n`) });
