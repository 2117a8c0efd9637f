import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../cli/args.js';

describe('the serve command line', () => {
  it('starts the server with no command, or with serve, on 5173 unless --port or PORT says otherwise', () => {
    expect(parseCommand([], {})).toEqual({ kind: 'serve', port: 5173, demo: true, open: false, targets: [] });
    expect(parseCommand(['serve', '--port', '0', '--no-demo', '--open'], {})).toEqual({ kind: 'serve', port: 0, demo: false, open: true, targets: [] });
    expect(parseCommand(['--port=8080'], {})).toMatchObject({ kind: 'serve', port: 8080 });
    expect(parseCommand([], { PORT: '9000' })).toMatchObject({ kind: 'serve', port: 9000 });
  });

  it('takes repeatable --target URLs and refuses what is not an http(s) URL', () => {
    expect(parseCommand(['--target', 'http://localhost:3000/mcp', '--target', 'https://x.example/mcp'], {})).toMatchObject({ targets: ['http://localhost:3000/mcp', 'https://x.example/mcp'] });
    expect(parseCommand(['--target', 'localhost:3000'], {})).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['--target', 'file:///etc/passwd'], {})).toMatchObject({ kind: 'usage-error' });
  });

  it('keeps --help and --version, and names serve among the commands', () => {
    expect(parseCommand(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseCommand(['--version'], {})).toEqual({ kind: 'version' });
    expect(parseCommand(['serve', '--port', 'x'], {})).toMatchObject({ kind: 'usage-error', message: expect.stringMatching(/--port/) });
    expect(parseCommand(['frobnicate'], {})).toMatchObject({ kind: 'usage-error', message: expect.stringMatching(/"serve" \(the default\)/) });
  });
});
