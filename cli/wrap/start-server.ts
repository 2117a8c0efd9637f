// Starts the wrapped server command as our child, for tap and serve mode alike.
import { spawn, type ChildProcessByStdio, type StdioPipe, type StdioNull } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { WrapCommand } from './wrap-args.js';

/**
 * The wrapped server's environment: ours without the inspector's secrets. The server is the
 * developer's, but it need not be trusted with the relay: with the token it could call the
 * other wrapped servers and drain the capture file.
 */
export function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!/^MRTR_.*(TOKEN|SECRET|COOKIE)/i.test(k)) out[k] = v;
  return out;
}

/** The exit status when the command cannot be started (as a shell reports it). */
export const CANNOT_START = 127;

/**
 * Spawns the server with piped stdin and stdout, and stderr piped (tap mode keeps a copy)
 * or inherited (serve mode has no client to hand it to). Resolves to the child once it has
 * started, or to null after saying on stderr why it could not start.
 */
export async function startServer<E extends 'pipe' | 'inherit'>(cmd: Pick<WrapCommand, 'command' | 'args'>, stderr: E): Promise<ChildProcessByStdio<Writable, Readable, E extends 'pipe' ? Readable : null> | null> {
  const child = spawn(cmd.command, cmd.args, { stdio: ['pipe', 'pipe', stderr as StdioPipe | StdioNull], env: serverEnv(process.env) }) as ChildProcessByStdio<Writable, Readable, E extends 'pipe' ? Readable : null>;
  const problem = await new Promise<Error | null>((resolve) => {
    child.once('spawn', () => resolve(null));
    child.once('error', (err) => resolve(err));
  });
  if (!problem) return child;
  process.stderr.write(`mrtr-inspector wrap: cannot start ${JSON.stringify(cmd.command)}: ${problem.message}. Check the command after "--".\n`);
  return null;
}
