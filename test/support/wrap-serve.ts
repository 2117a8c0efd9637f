// `mrtr-inspector wrap --serve` in the tests: a stdio server started behind a test relay as
// target stdio-<name>, waited for until the relay lists it, and stopped after each test.
import { spawn, type ChildProcess } from 'node:child_process';
import { eventually, send, type RelayHarness } from '../unit/relay/relay-harness.js';

/** Starts `wrap --serve --name <name>` for the server command `server`, attached to `h`
 *  (whose folder it finds the relay's proof in). Its stderr is piped, the rest ignored. */
export function serveWrapped(h: RelayHarness, name: string, server: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['cli/bin.js', 'wrap', '--serve', '--name', name, '--inspector', h.origin, '--', ...server],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MRTR_RELAY_DIR: h.dir } });
}

/** Resolves once the relay lists the stdio target `id` (within 20 s). */
export async function targetAttached(h: RelayHarness, id: string): Promise<void> {
  await eventually(async () => {
    const r = await send(h.port, { path: '/relay/api/targets', headers: { origin: h.origin } });
    return r.json<{ stdio: { id: string }[] }>().stdio.some((t) => t.id === id);
  }, 20_000);
}

/** Stops every child (SIGTERM, waiting for each to close) and empties the list. */
export async function stopChildren(children: ChildProcess[]): Promise<void> {
  for (const c of children.splice(0)) {
    c.kill('SIGTERM');
    if (c.exitCode === null) await new Promise((r) => c.once('close', r));
  }
}
