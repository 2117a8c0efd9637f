// The built CLI (cli/bin.js) run as a child process, for tests whose replay target lives in
// the test's own process and must keep answering while the CLI runs (so not execFileSync).
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What one CLI run printed and how it exited. */
export interface CliRun { code: number | null; stdout: string; stderr: string }

/** Runs `node cli/bin.js …args` with colour off and resolves when it exits. */
export function runCli(...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['cli/bin.js', ...args], { env: { ...process.env, NO_COLOR: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Newest mtime of the .ts files under `dir`. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p));
    else if (e.name.endsWith('.ts')) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

/**
 * Builds the CLI when dist/ is older than its sources (cli/, worker/ and the server code it
 * shares). Only when stale: test files may run at once, and a rebuild under a running CLI
 * could show it a half-written file.
 */
export function buildCliIfStale(): void {
  let built = 0;
  try { built = statSync('dist/cli/main.js').mtimeMs; } catch { /* not built yet */ }
  if (built < Math.max(newest('cli'), newest('worker'), newest('server'))) execFileSync('npx', ['tsc', '-p', 'cli/tsconfig.json'], { stdio: 'inherit' });
}
