// The package as a user gets it: `npm pack` of this checkout, installed into an empty
// folder with `npm install --omit=dev --offline` (the run-time dependencies are bundled in
// the tarball, so no registry is asked), and the installed `mrtr-inspector` started from
// there. For the packaging test and the start-up bench; callers remove `dir` when done.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** What packing and installing produced. */
export interface PackedInstall {
  tarball: string;
  tarballBytes: number;
  /** The folder the package was installed into (its node_modules holds everything). */
  prefix: string;
  installedBytes: number;
  /** The installed bin. */
  bin: string;
}

/** Total size of the files under `p`. */
export function treeBytes(p: string): number {
  const info = statSync(p);
  if (!info.isDirectory()) return info.size;
  let n = 0;
  for (const e of readdirSync(p)) n += treeBytes(join(p, e));
  return n;
}

/** Builds when stale (server/start.js --build-only), packs without the build scripts (the build is fresh), installs into `dir`/app. */
export function packAndInstall(dir: string): PackedInstall {
  execFileSync(process.execPath, ['server/start.js', '--build-only'], { cwd: ROOT, stdio: 'inherit' });
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' });
  const tarball = join(dir, out.trim().split('\n').pop()!);
  const prefix = join(dir, 'app');
  mkdirSync(prefix);
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: 'packed-install-probe', version: '1.0.0', private: true }));
  execFileSync('npm', ['install', '--omit=dev', '--offline', '--no-audit', '--no-fund', '--silent', tarball], { cwd: prefix, stdio: 'inherit' });
  return {
    tarball,
    tarballBytes: statSync(tarball).size,
    prefix,
    installedBytes: treeBytes(join(prefix, 'node_modules')),
    bin: join(prefix, 'node_modules', '.bin', 'mrtr-inspector'),
  };
}

/** A started inspector: its origin once the banner is printed, and a stop that waits for exit. */
export interface StartedInspector {
  child: ChildProcess;
  origin: string;
  banner: string;
  stop(): Promise<number | null>;
}

/** Runs `command args` (an inspector start) and resolves once it printed its banner. */
export function startPrinting(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<StartedInspector> {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => (err += d));
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /Inspector: +(http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m && out.includes('Stdio:')) resolve({ child, origin: m[1], banner: out, stop });
    });
    void exited.then((code) => reject(new Error(`the inspector exited (${code}) before printing its banner:\n${out}\n${err}`)));
  });
}
