// Parsing `mrtr-inspector mock <capture> …`: a pure function, tested without a process.
import { parseArgs } from 'node:util';
import { choiceValue, portValue } from '../option-values.js';
import { DEFAULT_MOCK_TIMING, MOCK_TIMINGS, type MockTiming } from '../../worker/mock/http-answer.js';

/** The parsed `mock` command. */
export interface MockCommand {
  kind: 'mock';
  path: string;
  /** 0: any free port. */
  port: number;
  stdio: boolean;
  timing: MockTiming;
  strict: boolean;
  allowPartial: boolean;
  /** Where to write the summary at exit: JUnit XML for a .xml name, JSON otherwise. */
  report?: string;
}

/** The mock part of the help text. */
export const MOCK_USAGE = `
Mock serves a capture back as an MCP server, for testing clients offline:
  mrtr-inspector mock <capture.har|capture.jsonl> [--port N] [--stdio] [--timing recorded|fast] [--strict] [--report FILE]
First requests are matched by method and params (name and arguments); each multi-round
call is followed round by round, with fresh requestState tokens the client must echo. A
request the capture cannot answer gets a JSON-RPC error naming the closest recorded one.

Mock options:
  --port N             HTTP port on 127.0.0.1 (default 0: any free port; the URL is printed)
  --stdio              serve on standard input and output instead of HTTP
  --timing MODE        recorded (default): answers and stream events as late as recorded;
                       fast: at once
  --strict             also refuse a retry that does not echo the token, or answers a key
                       the round never asked for (otherwise served, with a warning)
  --report FILE        write the summary at exit to FILE: JUnit XML if it ends in .xml, else JSON
  --allow-partial      as for lint

Mock exit status (at Ctrl-C, SIGTERM, or the end of standard input with --stdio): 0 no
mismatch, 1 at least one, 2 the capture could not be used or the port could not be opened.
`;

type Usage = { kind: 'usage-error'; message: string } | { kind: 'help' };

/** Parses `mock …` argv. Never throws. */
export function parseMockCommand(argv: readonly string[]): MockCommand | Usage {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        stdio: { type: 'boolean' },
        timing: { type: 'string' },
        strict: { type: 'boolean' },
        report: { type: 'string' },
        'allow-partial': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return { kind: 'usage-error', message: err instanceof Error ? err.message : String(err) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const [, path, ...rest] = positionals;
  if (path === undefined) return { kind: 'usage-error', message: 'mock needs a capture file: mrtr-inspector mock <capture.har|capture.jsonl>' };
  if (rest.length > 0) return { kind: 'usage-error', message: `unexpected argument "${rest[0]}" (one capture file per run)` };
  const port = portValue('--port', values.port, 0);
  if (typeof port === 'string') return { kind: 'usage-error', message: port };
  if (values.stdio && values.port !== undefined) return { kind: 'usage-error', message: '--port and --stdio do not go together: --stdio serves on standard input and output' };
  const timing = choiceValue('--timing', values.timing, MOCK_TIMINGS, DEFAULT_MOCK_TIMING);
  if (typeof timing === 'object') return { kind: 'usage-error', message: timing.error };
  return {
    kind: 'mock', path, port, stdio: values.stdio ?? false, timing, strict: values.strict ?? false,
    allowPartial: values['allow-partial'] ?? false, ...(values.report !== undefined ? { report: values.report } : {}),
  };
}
