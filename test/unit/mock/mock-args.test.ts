import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../cli/args.js';

describe('mock command line', () => {
  it('reads the capture and the options, with HTTP on any free port and recorded timing by default', () => {
    expect(parseCommand(['mock', 'c.har'])).toEqual({ kind: 'mock', path: 'c.har', port: 0, stdio: false, timing: 'recorded', strict: false, allowPartial: false });
    expect(parseCommand(['mock', 'c.jsonl', '--port', '4100', '--timing', 'fast', '--strict', '--report', 'r.xml', '--allow-partial']))
      .toEqual({ kind: 'mock', path: 'c.jsonl', port: 4100, stdio: false, timing: 'fast', strict: true, allowPartial: true, report: 'r.xml' });
    expect(parseCommand(['--timing', 'fast', 'mock', 'c.har', '--stdio'])).toMatchObject({ kind: 'mock', path: 'c.har', stdio: true, timing: 'fast' });
  });

  it('says what is wrong with a bad option', () => {
    const message = (argv: string[]) => {
      const cmd = parseCommand(argv);
      return cmd.kind === 'usage-error' ? cmd.message : `no error: ${JSON.stringify(cmd)}`;
    };
    expect(message(['mock'])).toContain('mock needs a capture file');
    expect(message(['mock', 'a.har', 'b.har'])).toContain('unexpected argument "b.har"');
    expect(message(['mock', 'a.har', '--port', '70000'])).toContain('--port needs a port number from 0 to 65535, got "70000"');
    expect(message(['mock', 'a.har', '--timing', 'slow'])).toContain('--timing must be recorded or fast, got "slow"');
    expect(message(['mock', 'a.har', '--stdio', '--port', '1'])).toContain('--port and --stdio do not go together');
    expect(message(['mock', 'a.har', '--target', 'x'])).toMatch(/Unknown option '--target'/);
  });
});
