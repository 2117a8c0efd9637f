// Command-line parsing for `mrtr-inspector`: a pure function, tested without a process.
import { parseArgs } from 'node:util';
import { parseReplayCommand, REPLAY_USAGE, unexpectedArguments, type ReplayCommand } from './replay.js';
import { parseWrapCommand, WRAP_USAGE, type WrapCommand } from './wrap/wrap-args.js';
import { parseServeCommand, SERVE_USAGE, type ServeCommand } from './serve-args.js';
import { CHECK_USAGE, parseCheckCommand, type CheckCommand } from './check/check-args.js';
import { MOCK_USAGE, parseMockCommand, type MockCommand } from './mock/mock-args.js';
import { choiceValue, COMMANDS_SENTENCE, numberValue } from './option-values.js';

export type OutputFormat = 'text' | 'json' | 'sarif' | 'junit';

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'lint'; path: string; keys: string[]; format: OutputFormat; maxRounds: number; ttlBound: number; allowPartial: boolean; output?: string; color?: boolean }
  | ReplayCommand
  | WrapCommand
  | ServeCommand
  | CheckCommand
  | MockCommand
  | { kind: 'usage-error'; message: string };

export const USAGE = `Usage: mrtr-inspector [serve] [--port N] [--no-demo] [--open] [--target URL]
       mrtr-inspector lint <capture.har|capture.jsonl> [options]
       mrtr-inspector replay <capture.har|capture.jsonl> --target <url> [options]
       mrtr-inspector wrap [--name NAME] [--serve] -- <stdio server command…>
       mrtr-inspector check <url> [options] | check [options] -- <stdio server command…>
       mrtr-inspector mock <capture.har|capture.jsonl> [--port N] [--stdio] [options]

Lints MCP 2026-07-28 multi round-trip traffic in a HAR 1.2 or mrtr-inspector JSONL capture.

Options:
  --key SECRET         verification key for requestState tokens; repeatable, tried on every
                       token. Plain text is UTF-8; prefix hex: or base64: for binary keys.
                       Keys are never printed.
  --format FORMAT      text (default), json, sarif or junit
  --max-rounds N       round count above which mrtr/too-many-rounds fires (default 8)
  --ttl-bound SECONDS  token lifetime above which state/long-ttl fires (default 900)
  --allow-partial      import the readable entries of a damaged capture (says what was skipped)
  --output FILE        write the report to FILE instead of standard output
  --no-color           plain text even on a terminal
  --version            print the version
  --help               print this help

Exit status: 0 no error-severity finding, 1 at least one, 2 the input could not be used.
${SERVE_USAGE}${REPLAY_USAGE}${WRAP_USAGE}${CHECK_USAGE}${MOCK_USAGE}`;

/** The command word, found the way parseArgs would (string options consume their values). */
function commandWord(argv: readonly string[]): string | undefined {
  try {
    const strings = ['port', 'key', 'format', 'max-rounds', 'ttl-bound', 'output', 'target', 'ignore', 'conversation', 'timeout', 'tool', 'skip', 'args', 'root', 'max-wait', 'max-calls', 'max-time', 'concurrency', 'save', 'timing', 'report'];
    const options = Object.fromEntries(strings.map((o) => [o, { type: 'string' as const }]));
    return parseArgs({ args: [...argv], allowPositionals: true, strict: false, options: { ...options, output: { type: 'string', short: 'o' } } }).positionals[0];
  } catch {
    return undefined;
  }
}

/** Parses argv (without node and script). Never throws. */
export function parseCommand(argv: readonly string[], env: Record<string, string | undefined> = process.env): Command {
  // The server command after `--` is not ours to read: look for the command word before it.
  const dd = argv.indexOf('--');
  const before = commandWord(dd === -1 ? argv : argv.slice(0, dd));
  if (before === 'wrap') {
    const wrap = parseWrapCommand(argv, env);
    return typeof wrap === 'string' ? { kind: 'usage-error', message: wrap } : wrap;
  }
  if (before === 'check') return parseCheckCommand(argv);
  const word = commandWord(argv);
  if (word === 'replay') return parseReplayCommand(argv);
  if (word === 'mock') return parseMockCommand(argv);
  // No command is the server, unless the only ask is help or the version.
  if (word === 'serve' || (word === undefined && !argv.some((a) => ['--help', '-h', '--version', '-v'].includes(a)))) return parseServeCommand(argv, env);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        key: { type: 'string', multiple: true },
        format: { type: 'string' },
        'max-rounds': { type: 'string' },
        'ttl-bound': { type: 'string' },
        'allow-partial': { type: 'boolean' },
        output: { type: 'string', short: 'o' },
        'no-color': { type: 'boolean' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    // parseArgs echoes the offending option; it never sees key values as options.
    return { kind: 'usage-error', message: err instanceof Error ? err.message : String(err) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const [cmd, path, ...rest] = positionals;
  if (cmd === undefined) return { kind: 'help' };
  // Not echoed when a key was given: it may be the tail of an unquoted key (see unexpectedArguments).
  if (cmd !== 'lint') return { kind: 'usage-error', message: `unknown command${values.key ? '' : ` "${cmd}"`}; ${COMMANDS_SENTENCE}` };
  if (path === undefined) return { kind: 'usage-error', message: 'lint needs a capture file: mrtr-inspector lint <capture.har|capture.jsonl>' };
  if (rest.length > 0) return { kind: 'usage-error', message: unexpectedArguments(rest, values.key !== undefined) };
  const format = choiceValue('--format', values.format, ['text', 'json', 'sarif', 'junit'] as const, 'text');
  if (typeof format === 'object') return { kind: 'usage-error', message: format.error };
  const maxRounds = numberValue('--max-rounds', values['max-rounds'], 8, { integer: true });
  if (typeof maxRounds === 'string') return { kind: 'usage-error', message: maxRounds };
  const ttlBound = numberValue('--ttl-bound', values['ttl-bound'], 900, { integer: true });
  if (typeof ttlBound === 'string') return { kind: 'usage-error', message: ttlBound };
  return {
    kind: 'lint', path, keys: values.key ?? [], format, maxRounds, ttlBound,
    allowPartial: values['allow-partial'] ?? false,
    ...(values.output !== undefined ? { output: values.output } : {}),
    ...(values['no-color'] ? { color: false } : {}),
  };
}
