#!/usr/bin/env node
// `npm start`: the same production server as `npx mrtr-inspector` (cli/serve.ts on
// node:http), after building the page, the service worker and the compiled server and CLI
// when the build is missing or older than any source file. `--no-build` skips the check;
// `--build-only` builds when stale and exits (the packaging test and bench use it).
// Plain JavaScript: it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

// The two builds, each with the sources it reads and the output that marks it done (the
// last file each tool writes is as new as the build; tsc rewrites every output each run).
const PARTS = [
  {
    name: 'the page and service worker',
    output: 'dist/web/index.html',
    sources: ['web', 'worker', 'public', 'server/sw-plugin.ts', 'vite.config.ts', 'package.json'],
    command: ['npx', ['vite', 'build', '--logLevel', 'warn']],
  },
  {
    name: 'the server and CLI',
    output: 'dist/cli/main.js',
    sources: ['cli', 'worker', 'server', 'package.json', 'tsconfig.json'],
    command: ['npx', ['tsc', '-p', 'cli/tsconfig.json']],
  },
];

// Newest mtime under `p` (a file or a folder, walked); -1 when absent.
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

/** Why `part` needs building, or null when its output is newer than every source. */
function staleReason(part, root = ROOT) {
  const built = newest(join(root, part.output));
  if (built < 0) return `${part.output} is missing`;
  const source = part.sources.find((s) => newest(join(root, s)) > built);
  return source ? `${source} changed since ${part.output} was built` : null;
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
  for (const part of noBuild ? [] : PARTS) {
    const reason = staleReason(part);
    if (!reason) continue;
    console.log(`Building ${part.name} (${reason})…`);
    run(...part.command);
  }
  if (argv.includes('--build-only')) return;
  const { main: cli } = await import('../dist/cli/main.js');
  process.exitCode = await cli(['serve', ...argv.filter((a) => a !== '--no-build')]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
