// A stdio "server" that misbehaves on purpose, for the wrap's bounds: `node hostile-server.mjs
// <mode> <n>`. Modes: flood (n MiB of output with no newline, then exit), progress (to each
// request: n progress notifications of ~1 KiB, then the answer), big-answer (each request
// answered with one line of n MiB, id last as the TypeScript SDK writes it), silent (reads
// and never answers; it says on stderr `read <id>` for each request, so a test knows the
// call is waiting without a clock), env (answers each request with the MRTR_* variables it was given).
import { createInterface } from 'node:readline';

const [mode, nText] = process.argv.slice(2);
const n = Number(nText ?? 1);
const MIB = 1024 * 1024;

async function write(text) {
  if (!process.stdout.write(text)) await new Promise((r) => process.stdout.once('drain', r));
}

if (mode === 'flood') {
  const block = 'x'.repeat(MIB);
  for (let i = 0; i < n; i++) await write(block);
  process.exit(0);
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (mode === 'silent') return void process.stderr.write(`read ${JSON.stringify(msg.id)}\n`);
  queue = queue.then(async () => {
    if (mode === 'progress') {
      const pad = 'p'.repeat(1000);
      for (let i = 0; i < n; i++) await write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: i, message: pad } }) + '\n');
      await write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'done' }] } }) + '\n');
    } else if (mode === 'big-answer') {
      // In pieces: a line of n MiB may be longer than one string can be.
      await write('{"result":{"content":[{"type":"text","text":"');
      const block = 'y'.repeat(MIB);
      for (let i = 0; i < n; i++) await write(block);
      await write(`"}]},"jsonrpc":"2.0","id":${JSON.stringify(msg.id)}}\n`);
    } else if (mode === 'env') {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('MRTR_')));
      await write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { env } }) + '\n');
    }
  });
});
