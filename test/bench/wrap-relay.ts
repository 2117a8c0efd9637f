// A relay alone on a random loopback port, for the wrap benchmark to post to from another
// process (so the relay's work does not share the measuring process's event loop).
// Prints the port on stdout, then serves until killed. It publishes its info file (token and
// proof key) in MRTR_RELAY_DIR, as the inspector does, so wrap finds and verifies it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoHandler } from '../../server/demo/handler.ts';
import { createRelay } from '../../server/relay/relay.ts';

const relay = createRelay({ createDemo: () => createDemoHandler(), token: process.env.MRTR_RELAY_TOKEN, jsonlPath: process.env.MRTR_RELAY_JSONL, relayDir: process.env.MRTR_RELAY_DIR, warn: () => undefined });
const server = createServer((req, res) => relay.handle(req, res, () => res.writeHead(404).end()));
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  relay.publish(port);
  process.stdout.write(`${port}\n`);
});
process.on('SIGTERM', () => void relay.close().finally(() => process.exit(0)));
