import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../cli/args.js';
import { CHECK_USAGE } from '../../../cli/check/check-args.js';
import { CHECK_DEFAULTS } from '../../../worker/check/defaults.js';

describe('parsing mrtr-inspector check', () => {
  it('takes a URL with safe defaults', () => {
    expect(parseCommand(['check', 'http://127.0.0.1:3000/mcp'])).toMatchObject({
      kind: 'check', url: 'http://127.0.0.1:3000/mcp', allowDestructive: false, format: 'text', maxWaitMs: 5000, maxCalls: 2000, maxTimeMs: 300_000, concurrency: 4,
    });
  });

  it('takes a stdio command after -- and leaves its options alone', () => {
    expect(parseCommand(['check', '--tool', 'get_*', '--', 'node', 'server.js', '--tool', 'x'])).toMatchObject({ kind: 'check', stdio: { command: 'node', args: ['server.js', '--tool', 'x'] }, tools: ['get_*'] });
  });

  it('merges --args per name and says which value is not a JSON object', () => {
    expect(parseCommand(['check', 'http://h/mcp', '--args', 'a={"x":1}', '--args', 'a={"y":2}'])).toMatchObject({ args: { a: { x: 1, y: 2 } } });
    expect(parseCommand(['check', 'http://h/mcp', '--args', 'a={x'])).toMatchObject({ kind: 'usage-error', message: expect.stringMatching(/^--args a: the value is not JSON/) });
    expect(parseCommand(['check', 'http://h/mcp', '--args', 'a=[1]'])).toMatchObject({ kind: 'usage-error', message: '--args a: the value must be a JSON object of arguments' });
    expect(parseCommand(['check', 'http://h/mcp', '--args', 'novalue'])).toMatchObject({ kind: 'usage-error', message: '--args needs NAME=JSON, got "novalue"' });
  });

  it('refuses a missing server, both kinds of server, and a URL that is not http', () => {
    expect(parseCommand(['check'])).toMatchObject({ kind: 'usage-error', message: expect.stringMatching(/check needs a server/) });
    expect(parseCommand(['check', 'http://h/mcp', '--', 'node'])).toMatchObject({ kind: 'usage-error', message: expect.stringMatching(/not both/) });
    expect(parseCommand(['check', 'ftp://h/mcp'])).toMatchObject({ kind: 'usage-error', message: expect.stringMatching(/http or https URL/) });
  });

  it('refuses bad numbers and formats, naming the option', () => {
    expect(parseCommand(['check', 'http://h/mcp', '--concurrency', '0'])).toMatchObject({ kind: 'usage-error', message: '--concurrency needs a positive whole number, got "0"' });
    expect(parseCommand(['check', 'http://h/mcp', '--max-wait', '0'])).toMatchObject({ kind: 'check', maxWaitMs: 0 });
    expect(parseCommand(['check', 'http://h/mcp', '--format', 'xml'])).toMatchObject({ kind: 'usage-error', message: '--format must be text, json, sarif or junit, got "xml"' });
  });

  it('the help states the defaults the page and the CLI share', () => {
    expect(CHECK_USAGE).toContain(`--max-calls N        send at most N requests in all (default ${CHECK_DEFAULTS.maxCalls})`);
    expect(CHECK_USAGE).toContain(`(default ${CHECK_DEFAULTS.maxWaitMs / 1000})`);
    expect(CHECK_USAGE).toContain(`in flight (default ${CHECK_DEFAULTS.concurrency})`);
    expect(CHECK_USAGE).toContain(`stop sending after this long (default ${CHECK_DEFAULTS.maxTimeMs / 1000})`);
    expect(CHECK_USAGE).toMatch(/--timeout SECONDS +give up on one request after this long \(default 30\)/);
  });
});
