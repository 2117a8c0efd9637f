// The CLI under dist/ is built once per `vitest run`, by the global setup. A test file that
// runs tsc on cli/tsconfig.json itself rewrites dist/ while other files' CLI processes load
// it, and those exit 1 or print nothing (CI failed twice that way). This keeps it so.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ALLOWED = new Set(['test/support/cli-process.ts', 'test/support/build-cli-once.ts']);

function* testSources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'fixtures' && name !== 'node_modules') yield* testSources(path);
    } else if (/\.(ts|js|mjs)$/.test(name)) yield path;
  }
}

describe('the CLI build in tests', () => {
  it('only the global setup compiles cli/tsconfig.json', () => {
    const offenders: string[] = [];
    for (const path of testSources('test')) {
      if (ALLOWED.has(path) || path === 'test/typecheck.js' || path === 'test/unit/package/one-cli-build.test.ts') continue;
      if (/['"]cli\/tsconfig\.json['"]|build:cli/.test(readFileSync(path, 'utf8'))) offenders.push(path);
    }
    expect(offenders).toEqual([]);
  });

  it('the global setup is the one vitest runs', () => {
    expect(readFileSync('vite.config.ts', 'utf8')).toMatch(/globalSetup:\s*\[\s*'test\/support\/build-cli-once\.ts'\s*\]/);
  });
});
