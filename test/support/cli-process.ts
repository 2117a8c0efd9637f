// The built CLI (cli/bin.js) run as a child process, for tests whose replay target lives in
// the test's own process and must keep answering while the CLI runs (so not execFileSync).
import { spawn } from 'node:child_process';

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
