// wrap's default server name: one per server, even when every server's script is index.js.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultName, parseWrapCommand, type WrapCommand } from '../../../cli/wrap/wrap-args.js';

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

describe('which inspector wrap looks for', () => {
  const SERVER = ['--', 'node', 'server.js'];
  const parse = (argv: string[], env: Record<string, string | undefined>, ports: number[]) => {
    const cmd = parseWrapCommand([...argv, ...SERVER], { MRTR_RELAY_DIR: '/d', ...env }, undefined, () => ports);
    if (typeof cmd === 'string') throw new Error(cmd);
    return cmd as WrapCommand;
  };

  it('finds the one inspector running on another port when nothing names one (a client that empties the environment)', () => {
    const cmd = parse([], {}, [5200]);
    expect(cmd.inspector.url).toBe('http://127.0.0.1:5200');
    expect(cmd.capture).toBe('/d/relay-capture-5200.jsonl');
    expect(cmd.captureChosen).toBe(false);
    expect(cmd.warnings).toEqual([]);
  });

  it('keeps the default port when its inspector runs, or when none does', () => {
    expect(parse([], {}, [5173, 5200]).inspector.url).toBe('http://127.0.0.1:5173');
    expect(parse([], {}, []).inspector.url).toBe('http://127.0.0.1:5173');
  });

  it('says which ports run when several inspectors do and none is the default', () => {
    const cmd = parse([], {}, [5200, 5300]);
    expect(cmd.inspector.url).toBe('http://127.0.0.1:5173');
    expect(cmd.warnings.join('\n')).toContain('running on ports 5200, 5300');
  });

  it('never looks further when --inspector or MRTR_INSPECTOR_URL names one', () => {
    expect(parse(['--inspector', 'http://127.0.0.1:6000'], {}, [5200]).inspector.url).toBe('http://127.0.0.1:6000');
    expect(parse([], { MRTR_INSPECTOR_URL: 'http://127.0.0.1:6001' }, [5200]).inspector.url).toBe('http://127.0.0.1:6001');
  });

  it('marks a capture file the user chose', () => {
    expect(parse(['--capture', '/x.jsonl'], {}, []).captureChosen).toBe(true);
    expect(parse([], { MRTR_RELAY_JSONL: '/y.jsonl' }, []).captureChosen).toBe(true);
  });
});
