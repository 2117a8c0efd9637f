// A stdio "server" for byte-level tests: answers each JSON-RPC request line with a result
// that echoes its params, passes notifications silently, and obeys a few test commands in
// the method name (crash, non-JSON output, partial writes). Plain JS: runs under node alone.
import { createInterface } from 'node:readline';

// Writes go out in order even when one is split over time: the halves of a split answer
// are never interleaved with other output.
let queue = Promise.resolve();
const out = (text) => (queue = queue.then(() => void process.stdout.write(text)));
const pause = (ms) => (queue = queue.then(() => new Promise((r) => setTimeout(r, ms))));

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    out('this is not json\n');
    return;
  }
  if (msg.method === 'test/crash') {
    queue = queue.then(() => {
      process.stderr.write('fatal: the test asked me to crash\n');
      process.exit(3);
    });
    return;
  }
  if (msg.id === undefined) return;
  if (msg.method === 'test/noise') out('debug output that is not JSON\n');
  const answer = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { echo: msg.params ?? null } }) + '\n';
  if (msg.method === 'test/split') {
    // Two writes with a pause: the client must see both halves, in order.
    const cut = Math.floor(answer.length / 2);
    out(answer.slice(0, cut));
    pause(20);
    out(answer.slice(cut));
    return;
  }
  out(answer);
});
// stdin closed: the process ends by itself once pending writes are out.
