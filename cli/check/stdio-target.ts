// A stdio server as a check target: started as wrap starts it (start-server.ts), each
// request body written to its stdin as one line, and the stdout line that answers the
// request's id handed back as a 200 JSON response, so the engine sees what it sees over
// HTTP. Other lines (notifications, logs, answers to nobody) are left aside.
import { LineSplitter } from '../wrap/line-splitter.js';
import { startServer } from '../wrap/start-server.js';
import { defaultName } from '../wrap/wrap-args.js';
import type { ConsoleRequest, ConsoleResponse, Transport } from '../../worker/console/types.js';

/** The biggest answer line read (a longer one fails its request instead of filling memory). */
const MAX_LINE = 64 * 1024 * 1024;

/** A started stdio target: its pseudo URL, its transport, and how to stop it. */
export interface StdioTarget {
  url: string;
  send: Transport;
  close(): Promise<void>;
}

const idOf = (text: string): unknown => {
  try {
    return (JSON.parse(text) as { id?: unknown }).id;
  } catch {
    return undefined;
  }
};

/** Starts `command` and speaks to it line by line; a problem when it cannot start. */
export async function stdioTarget(cmd: { command: string; args: string[] }, timeoutMs: number): Promise<StdioTarget | { problem: string }> {
  const child = await startServer(cmd, 'inherit');
  if (!child) return { problem: `cannot start ${JSON.stringify(cmd.command)}` };
  // Named as wrap names it (the script or package, not the runner), so captures agree.
  const name = defaultName(cmd.command, cmd.args);
  const waiting = new Map<string, (line: string | Error) => void>();
  let ended: string | undefined;
  child.stdin.on('error', () => undefined);
  const lines = new LineSplitter((line, cut) => {
    const text = line.toString('utf8');
    const key = JSON.stringify(idOf(cut ? text.slice(0, 1024) : text));
    const done = waiting.get(key);
    if (!done) return;
    waiting.delete(key);
    done(cut ? new Error(`the answer line is ${cut.totalBytes} bytes, more than ${MAX_LINE} read`) : text);
  }, MAX_LINE);
  child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
  child.once('close', (code, signal) => {
    ended = `the stdio server ended (${signal ?? `exit ${code}`})`;
    for (const done of waiting.values()) done(new Error(ended));
    waiting.clear();
  });

  const send: Transport = async (req: ConsoleRequest): Promise<ConsoleResponse> => {
    const sentAt = Date.now();
    const failed = (error: string): ConsoleResponse => ({ status: 0, headers: [], sentAt, endedAt: Date.now(), error });
    if (ended) return failed(ended);
    const key = JSON.stringify(idOf(req.body));
    const answer = await new Promise<string | Error>((resolve) => {
      const timer = setTimeout(() => (waiting.delete(key), resolve(new Error('timed out waiting for the server'))), timeoutMs);
      waiting.set(key, (v) => (clearTimeout(timer), resolve(v)));
      // One line per message: a body with a raw newline would be two lines to the server.
      child.stdin.write(req.body.replace(/\r?\n/g, ' ') + '\n');
    });
    if (answer instanceof Error) return failed(answer.message);
    const at = Date.now();
    return { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], body: answer, sentAt, receivedAt: at, endedAt: at };
  };
  return {
    url: `stdio://${name}`,
    send,
    async close() {
      if (ended) return;
      const closed = new Promise<void>((r) => child.once('close', () => r()));
      child.stdin.end();
      child.kill('SIGTERM');
      await Promise.race([closed, new Promise<void>((r) => setTimeout(r, 3000).unref())]);
    },
  };
}
