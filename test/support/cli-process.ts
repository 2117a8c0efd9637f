// The built CLI (cli/bin.js) run as a child process, for tests whose replay target lives in
// the test's own process and must keep answering while the CLI runs (so not execFileSync).
// `runCliBatch` runs many command lines in one such process, one after another: a test
// that checks what the CLI prints for dozens of arguments pays Node's start once, not per
// case (the process boundary is not what those cases test; keep a `runCli` case beside).
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

/**
 * The batch child: reads the command lines (JSON) from stdin, runs the built CLI's `main` on
 * each in turn with stdout and stderr captured, and prints the runs as JSON. A crash is
 * exit 2 with its message on stderr, as cli/bin.js makes it.
 */
const BATCH = `
const { main } = await import(new URL('dist/cli/main.js', 'file://' + process.cwd() + '/').href);
let input = '';
for await (const c of process.stdin) input += c;
const write = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
const runs = [];
for (const argv of JSON.parse(input)) {
  const run = { code: null, stdout: '', stderr: '' };
  const into = (key) => (chunk, encoding, done) => {
    run[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    const cb = typeof encoding === 'function' ? encoding : done;
    if (cb) queueMicrotask(() => cb());
    return true;
  };
  // As cli/bin.js sees it, so a leak through process.argv shows here too.
  process.argv = [process.execPath, 'cli/bin.js', ...argv];
  process.stdout.write = into('stdout');
  process.stderr.write = into('stderr');
  try {
    run.code = await main(argv);
  } catch (err) {
    run.stderr += 'mrtr-inspector: internal error: ' + (err && err.stack ? err.stack : err) + '\\n';
    run.code = 2;
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
  runs.push(run);
}
write.out(JSON.stringify(runs));
`;

/** Runs each command line through the built CLI, all in one Node process, in order. */
export function runCliBatch(runs: readonly (readonly string[])[]): Promise<CliRun[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', BATCH], { env: { ...process.env, NO_COLOR: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the CLI batch exited ${code}: ${stderr}`));
      const results = JSON.parse(stdout) as CliRun[];
      if (results.length !== runs.length) return reject(new Error(`the CLI batch ran ${results.length} of ${runs.length} command lines`));
      resolve(results);
    });
    child.stdin.end(JSON.stringify(runs));
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
