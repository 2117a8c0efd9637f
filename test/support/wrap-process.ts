// Runs a stdio server directly or through the built `mrtr-inspector wrap`, feeding it input
// and collecting exactly what a client would see (stdout bytes, stderr bytes, exit status).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
export { buildCliIfStale } from './cli-process.js';

// wrap looks for the user's running inspectors in the per-user relay folder and warns on
// stderr when it finds some; a developer running the tests beside their own inspector must
// get the same bytes as CI, so a child not told otherwise sees an empty folder of its own.
let quietRelayDir: string | undefined;
function emptyRelayDir(): string {
  if (quietRelayDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-no-inspectors-'));
    quietRelayDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return quietRelayDir;
}

/** The echo server the byte-level tests drive. */
export const ECHO_SERVER = 'test/peers/stdio/echo-server.mjs';

/** What one run showed its client. */
export interface StdioRun { code: number | null; signal: NodeJS.Signals | null; stdout: Buffer; stderr: Buffer }

/** The argv of `node cli/bin.js wrap <wrapArgs> -- <server…>`. */
export function wrapArgv(wrapArgs: readonly string[], server: readonly string[]): string[] {
  return ['cli/bin.js', 'wrap', ...wrapArgs, '--', ...server];
}

/** Starts node with `argv`; the caller writes to stdin. Collects everything it prints. The
 *  relay folder is an empty one of the test run's unless `env` names one. */
export function startNode(argv: readonly string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcessWithoutNullStreams; done: Promise<StdioRun> } {
  const child = spawn(process.execPath, [...argv], { env: { ...process.env, MRTR_RELAY_DIR: emptyRelayDir(), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  child.stdin.on('error', () => undefined);
  const done = new Promise<StdioRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
  return { child, done };
}

/** Writes the chunks one by one, with a pause between them, then closes stdin. */
export async function feed(child: ChildProcessWithoutNullStreams, chunks: readonly (string | Buffer)[], pauseMs = 5): Promise<void> {
  for (const c of chunks) {
    if (!child.stdin.write(c)) await new Promise((r) => child.stdin.once('drain', r));
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  child.stdin.end();
}
