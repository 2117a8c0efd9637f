// The package a server script belongs to, for wrap's default name. Scripts are often called
// `index.js` or `main.py` (`server-memory/dist/index.js`, `server-everything/dist/index.js`),
// so the file's own name would give every such server the same name; the nearest
// package.json above the script names it instead.
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** Names that say nothing about which server a script is. */
export const GENERIC_SCRIPT_NAMES = new Set(['index', 'main', 'server', 'cli', 'bin', 'app', 'start', 'run', '__main__', 'mod', 'dist', 'build', 'lib', 'src']);

/** The `name` of the nearest package.json above `script` (without an npm scope), or null.
 *  Looks at most `depth` folders up and never above the filesystem root. */
export function packageNameNear(script: string, read: (path: string) => string = (p) => readFileSync(p, 'utf8'), depth = 6): string | null {
  let dir = dirname(resolve(script));
  for (let i = 0; i < depth; i++) {
    try {
      const name = (JSON.parse(read(resolve(dir, 'package.json'))) as { name?: unknown }).name;
      if (typeof name === 'string' && name !== '') return name.replace(/^@[^/]+\//, '');
    } catch {
      // No package.json here (or not one we can read): look one folder up.
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/** The folder a script sits in, skipping build folders (`dist`, `build`, `lib`, `src`, `bin`). */
export function folderNameOf(script: string): string | null {
  let dir = dirname(resolve(script));
  while (GENERIC_SCRIPT_NAMES.has(basename(dir)) && dirname(dir) !== dir) dir = dirname(dir);
  const name = basename(dir);
  return name === '' ? null : name;
}
