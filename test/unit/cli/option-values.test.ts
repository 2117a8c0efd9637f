// The option values every command shares: one reading and one wording of each error, so the
// same bad value gets the same message from serve, lint, replay, check and mock.
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../cli/args.js';
import { choiceValue, COMMANDS_SENTENCE, httpUrlValue, numberValue, portValue } from '../../../cli/option-values.js';

const message = (argv: string[], env: Record<string, string | undefined> = {}) => {
  const cmd = parseCommand(argv, env);
  return cmd.kind === 'usage-error' ? cmd.message : `parsed as ${cmd.kind}`;
};

describe('option values', () => {
  it('reads a port from 0 to 65535 and refuses the rest, naming the value', () => {
    expect(portValue('--port', undefined, 5173)).toBe(5173);
    expect(portValue('--port', '', 5173)).toBe(5173);
    expect(portValue('--port', '0', 5173)).toBe(0);
    expect(portValue('--port', '65535', 0)).toBe(65535);
    for (const bad of ['65536', '-1', '80.5', 'http', ' '])
      expect(portValue('--port', bad, 0), bad).toBe(`--port needs a port number from 0 to 65535, got ${JSON.stringify(bad)}`);
  });

  it('reads positive, non-negative and whole numbers, with the unit in the message', () => {
    expect(numberValue('--timeout', undefined, 30)).toBe(30);
    expect(numberValue('--timeout', '2.5', 30)).toBe(2.5);
    expect(numberValue('--timeout', '0', 30, { unit: 'seconds' })).toBe('--timeout needs a positive number of seconds, got "0"');
    expect(numberValue('--max-wait', '0', 30, { allowZero: true })).toBe(0);
    expect(numberValue('--max-wait', '-1', 30, { allowZero: true })).toBe('--max-wait needs a non-negative number, got "-1"');
    expect(numberValue('--max-calls', '2.5', 9, { integer: true })).toBe('--max-calls needs a positive whole number, got "2.5"');
    for (const bad of ['', 'Infinity', 'NaN', 'ten']) expect(typeof numberValue('--n', bad, 1), bad).toBe('string');
  });

  it('reads http(s) URLs only', () => {
    expect((httpUrlValue('--target', 'http://127.0.0.1:3000/mcp') as URL).href).toBe('http://127.0.0.1:3000/mcp');
    expect(httpUrlValue('--target', 'ftp://h/x')).toBe('--target needs an http or https URL, got "ftp://h/x"');
    expect(httpUrlValue('check', 'nope')).toBe('check needs an http or https URL such as http://localhost:3000/mcp, got "nope"');
  });

  it('reads one of a list, and cuts a long value short in the message', () => {
    expect(choiceValue('--timing', undefined, ['recorded', 'fast'] as const, 'recorded')).toBe('recorded');
    expect(choiceValue('--timing', 'fast', ['recorded', 'fast'] as const, 'recorded')).toBe('fast');
    expect(choiceValue('--format', 'xml', ['text', 'json', 'junit'] as const, 'text')).toEqual({ error: '--format must be text, json or junit, got "xml"' });
    expect((choiceValue('--timing', 'x'.repeat(500), ['recorded', 'fast'] as const, 'recorded') as { error: string }).error).toBe(`--timing must be recorded or fast, got "${'x'.repeat(40)}…"`);
  });
});

describe('every command words a bad value the same way', () => {
  it('a port', () => {
    const want = '--port needs a port number from 0 to 65535, got "70000"';
    expect(message(['serve', '--port', '70000'])).toBe(want);
    expect(message(['mock', 'a.har', '--port', '70000'])).toBe(want);
    expect(message([], { PORT: '70000' })).toBe('PORT needs a port number from 0 to 65535, got "70000"');
  });

  it('a URL', () => {
    expect(message(['serve', '--target', 'ws://h/mcp'])).toBe('--target needs an http or https URL, got "ws://h/mcp"');
    expect(message(['replay', 'a.har', '--target', 'ws://h/mcp'])).toBe('--target needs an http or https URL, got "ws://h/mcp"');
    expect(message(['check', 'ws://h/mcp'])).toBe('check needs an http or https URL, got "ws://h/mcp"');
  });

  it('a number of seconds', () => {
    expect(message(['replay', 'a.har', '--target', 'http://h/mcp', '--timeout', '0'])).toBe('--timeout needs a positive number of seconds, got "0"');
    expect(message(['check', 'http://h/mcp', '--timeout', '0'])).toBe('--timeout needs a positive number of seconds, got "0"');
  });

  it('a format', () => {
    expect(message(['lint', 'a.har', '--format', 'xml'])).toBe('--format must be text, json, sarif or junit, got "xml"');
    expect(message(['check', 'http://h/mcp', '--format', 'xml'])).toBe('--format must be text, json, sarif or junit, got "xml"');
  });

  it('an unknown command, listing all six, from the lint and the serve parsers alike', () => {
    expect(message(['bogus', 'a.har'])).toBe(`unknown command "bogus"; ${COMMANDS_SENTENCE}`);
    expect(message(['serve', 'bogus'])).toBe(`unknown command "bogus"; ${COMMANDS_SENTENCE}`);
    for (const c of ['serve', 'lint', 'replay', 'wrap', 'check', 'mock']) expect(COMMANDS_SENTENCE).toContain(`"${c}"`);
  });
});
