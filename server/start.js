#!/usr/bin/env node
// `npm start`: the same production server as `npx mrtr-inspector` (cli/serve.ts on
// node:http), after building the page, the service worker and the compiled server and CLI
// when the build is missing or older than any source file. `--no-build` skips the check.
// Plain JavaScript: it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const STAMP = join(ROOT, 'dist', '.build-stamp');
const SOURCES = ['web', 'worker', 'server', 'cli', 'public', 'vite.config.ts', 'package.json', 'tsconfig.json'];
const OUTPUTS = ['dist/web/index.html', 'dist/web/sw.js', 'dist/cli/main.js', 'dist/server/serve/inspector-server.js'];

const mtime = (p) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return -1;
  }
};

// Newest mtime under `p` (a file or a folder, walked).
function newest(p) {
  let info;
  try {
    info = statSync(p);
  } catch {
    return -1;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let t = info.mtimeMs;
  for (const e of readdirSync(p)) t = Math.max(t, newest(join(p, e)));
  return t;
}

/** Why a build is needed, or null when the last one is newer than every source. */
export function staleReason(root = ROOT) {
  const missing = OUTPUTS.find((o) => mtime(join(root, o)) < 0);
  if (missing) return `${missing} is missing`;
  const built = mtime(join(root, 'dist', '.build-stamp'));
  if (built < 0) return 'no build stamp';
  const source = SOURCES.find((s) => newest(join(root, s)) > built);
  return source ? `${source} changed since the last build` : null;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`mrtr-inspector: the build failed (${cmd} ${args.join(' ')}); fix the error above and run npm start again.`);
    process.exit(1);
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const noBuild = argv.includes('--no-build');
  const reason = noBuild ? null : staleReason();
  if (reason) {
    console.log(`Building (${reason})…`);
    const started = Date.now();
    run('npx', ['vite', 'build', '--logLevel', 'warn']);
    run('npx', ['tsc', '-p', 'cli/tsconfig.json']);
    // Stamped with the build's start: a source saved during the build still counts as newer.
    writeFileSync(STAMP, `${new Date(started).toISOString()}\n`);
    utimesSync(STAMP, started / 1000, started / 1000);
  }
  const { main: cli } = await import('../dist/cli/main.js');
  process.exitCode = await cli(['serve', ...argv.filter((a) => a !== '--no-build')]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
