// What `npx mrtr-inspector` loads must be installed with `--omit=dev`: every package the
// built CLI and server import at run time (followed from dist/cli/main.js through every
// relative import, static or dynamic) is a dependency, not a dev dependency. The packed
// install's browser test finds the same fault, minutes later; this one names the chain
// (the relay's capture file once reached the page's IndexedDB module, and with it `idb`).
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
const BUILTINS = new Set(builtinModules);
const IMPORT = /(?:^|[;\s}])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** Every bare specifier reachable from `entry`, each with the chain of files that reached it. */
function runtimePackages(entry: string): Map<string, string[]> {
  const parent = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  const found = new Map<string, string[]>();
  const chain = (file: string) => {
    const out: string[] = [];
    for (let f: string | null | undefined = file; f; f = parent.get(f)) out.unshift(f);
    return out;
  };
  while (queue.length) {
    const file = queue.shift()!;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      // `import type` is erased by tsc, so what is left in dist/ runs.
      if (spec.startsWith('.')) {
        const next = normalize(join(dirname(file), spec));
        if (!parent.has(next)) { parent.set(next, file); queue.push(next); }
      } else if (!spec.startsWith('node:') && !BUILTINS.has(spec)) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (!found.has(name)) found.set(name, chain(file));
      }
    }
  }
  return found;
}

describe('the packed CLI and server', () => {
  it('import at run time only packages listed in dependencies', () => {
    const used = runtimePackages('dist/cli/main.js');
    expect(used.size, 'the walk found no package at all: the import pattern no longer matches dist/').toBeGreaterThan(0);
    const missing = [...used].filter(([name]) => !(name in pkg.dependencies)).map(([name, via]) => `${name} via ${via.join(' -> ')}`);
    expect(missing).toEqual([]);
  });
});
