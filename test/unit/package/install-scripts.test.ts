// The package.json that `npm pack` ships is the repository's own file, so what it says
// about lifecycle scripts is what every `npx mrtr-inspector` user's npm reads.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  scripts?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};

// npm runs these when the package is installed as a dependency (`prepare` too, for git
// installs), and warns the installer about any package that has one.
const INSTALL_LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepare'];

describe('package.json', () => {
  it('runs no script when the package is installed', () => {
    const present = INSTALL_LIFECYCLE.filter((name) => pkg.scripts?.[name] !== undefined);
    expect(present, `install-time scripts in package.json: ${present.join(', ')}`).toEqual([]);
  });

  it('still builds what it ships when it is packed', () => {
    expect(pkg.scripts?.prepack).toMatch(/npm run build/);
  });

  it('records the install scripts of its dependencies it has reviewed (npm 11 allowScripts)', () => {
    // esbuild's postinstall only checks (and links) its platform binary; approving it
    // settles npm's "not yet covered by allowScripts" warning on `npm ci`.
    expect(pkg.allowScripts?.esbuild).toBe(true);
  });
});
