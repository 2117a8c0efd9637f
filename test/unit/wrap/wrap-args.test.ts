// wrap's default server name: one per server, even when every server's script is index.js.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultName } from '../../../cli/wrap/wrap-args.js';

const root = mkdtempSync(join(tmpdir(), 'wrap-name-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package folder with a package.json named `name` and a script at `script`. */
function pkg(dir: string, name: string | null, script: string): string {
  const at = join(root, dir);
  mkdirSync(join(at, script, '..'), { recursive: true });
  if (name !== null) writeFileSync(join(at, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
  writeFileSync(join(at, script), '');
  return join(at, script);
}

describe('wrap\'s default server name', () => {
  it('names servers whose scripts are all dist/index.js by their packages, so they differ', () => {
    const memory = pkg('node_modules/@modelcontextprotocol/server-memory', '@modelcontextprotocol/server-memory', 'dist/index.js');
    const everything = pkg('node_modules/@modelcontextprotocol/server-everything', '@modelcontextprotocol/server-everything', 'dist/index.js');
    const filesystem = pkg('node_modules/@modelcontextprotocol/server-filesystem', '@modelcontextprotocol/server-filesystem', 'dist/index.js');
    const names = [memory, everything, filesystem].map((s) => defaultName('node', [s]));
    expect(names).toEqual(['server-memory', 'server-everything', 'server-filesystem']);
  });

  it('names a generic script outside any package by its folder, skipping build folders', () => {
    const script = pkg('weather-server', null, 'build/main.py');
    expect(defaultName('python3', [script], () => null)).toBe('weather-server');
  });

  it('keeps a script\'s own name when it says which server it is', () => {
    const script = pkg('tools', 'some-package', 'my-server.js');
    expect(defaultName('node', [script])).toBe('my-server');
  });

  it('skips the runner and its flags, and drops a package version', () => {
    expect(defaultName('npx', ['-y', '@modelcontextprotocol/server-memory@2025.1.1'])).toBe('server-memory');
    expect(defaultName('uvx', ['mcp-server-fetch'])).toBe('mcp-server-fetch');
  });

  it('keeps names to the URL-safe alphabet', () => {
    const script = pkg('odd', 'we ird/na me', 'index.js');
    expect(defaultName('node', [script])).toMatch(/^[A-Za-z0-9._-]+$/);
  });
});
