#!/usr/bin/env node
// `npm run typecheck`: each host's tsc project, svelte-check for the page and the import
// rules (dependency-cruiser), two at a time. Each is one single-threaded process, so on a
// 2-core machine one after another left a core idle. A check's output is held until it
// ends and then printed whole, so two checks never interleave their lines.
// `--emit-cli` (npm test) compiles the CLI to dist/ in the same pass as its check, instead
// of type-checking it once more after a build did.
// Plain JavaScript so it runs before anything is built.
// Each tsc keeps what it checked in a .tsbuildinfo, and dependency-cruiser its cache, so a
// run re-checks what changed since the last (a cold tsc of the tests took 33 s CPU, a warm
// one 10 s). Hazard: an emitting tsc trusts its .tsbuildinfo that dist/ holds its output, so
// the CLI's lives in dist/ (removing dist/ removes it) and goes when dist/cli/main.js is gone.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';

const emitCli = process.argv.includes('--emit-cli');
const bin = (name) => `node_modules/.bin/${name}`;
const CACHE = 'node_modules/.cache/mrtr-typecheck';
mkdirSync(CACHE, { recursive: true });
/** tsc's flags to keep its incremental state in `file`. */
const incremental = (file) => ['--incremental', '--tsBuildInfoFile', file];
const CLI_BUILD_INFO = emitCli ? 'dist/cli.tsbuildinfo' : `${CACHE}/cli.tsbuildinfo`;
if (emitCli && !existsSync('dist/cli/main.js')) rmSync(CLI_BUILD_INFO, { force: true });

// Longest first (on this machine), so the last one to start is a short one.
const CHECKS = [
  ['svelte-check (page)', bin('svelte-check'), ['--tsconfig', 'web/tsconfig.json', '--fail-on-warnings']],
  ['tsc test', bin('tsc'), ['-p', 'test/tsconfig.json', ...incremental(`${CACHE}/test.tsbuildinfo`)]],
  ['dependency rules', bin('depcruise'), ['--config', 'test/architecture/dependency-rules.cjs', 'worker', 'web', 'server', 'cli', 'test']],
  [emitCli ? 'tsc cli (emits dist/)' : 'tsc cli', bin('tsc'), ['-p', 'cli/tsconfig.json', ...(emitCli ? [] : ['--noEmit']), ...incremental(CLI_BUILD_INFO)]],
  ['tsc server', bin('tsc'), ['-p', 'server/tsconfig.json', ...incremental(`${CACHE}/server.tsbuildinfo`)]],
  ['tsc worker', bin('tsc'), ['-p', 'worker/tsconfig.json', ...incremental(`${CACHE}/worker.tsbuildinfo`)]],
  ['tsc service worker', bin('tsc'), ['-p', 'web/sw/tsconfig.json', ...incremental(`${CACHE}/sw.tsbuildinfo`)]],
];
const PARALLEL = Number(process.env.TYPECHECK_JOBS ?? 2);

/** Runs one check to its end; resolves with whether it passed, its output and its time. */
function check([label, cmd, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('error', (err) => resolve({ label, ok: false, text: `${cmd} did not start: ${err.message}\n`, ms: Date.now() - started }));
    child.on('close', (code) => resolve({ label, ok: code === 0, text: Buffer.concat(out).toString(), ms: Date.now() - started }));
  });
}

const queue = [...CHECKS];
const results = [];
async function lane() {
  for (let next = queue.shift(); next; next = queue.shift()) {
    const r = await check(next);
    results.push(r);
    console.log(`-- ${r.ok ? 'ok  ' : 'FAIL'} ${r.label} (${(r.ms / 1000).toFixed(1)} s)`);
    // svelte-check prints a summary line even when clean; the rest print only problems.
    if (!r.ok || r.text.trim()) process.stdout.write(r.text.endsWith('\n') || !r.text ? r.text : `${r.text}\n`);
  }
}
await Promise.all(Array.from({ length: Math.max(1, PARALLEL) }, lane));
const failed = results.filter((r) => !r.ok).map((r) => r.label);
if (failed.length) console.log(`typecheck failed: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);
