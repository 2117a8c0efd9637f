// Parsing for `mrtr-inspector [serve]`: a pure function, tested without a process.
import { parseArgs } from 'node:util';
import { COMMANDS_SENTENCE, httpUrlValue, portValue } from './option-values.js';

/** The parsed serve command. */
export interface ServeCommand {
  kind: 'serve';
  port: number;
  demo: boolean;
  open: boolean;
  /** Watched-target URLs to add at start. */
  targets: string[];
}

/** The serve part of the help text. */
export const SERVE_USAGE = `
With no command (or \`serve\`), starts the inspector: the page, the relay and the embedded
demo MCP server, on 127.0.0.1 only. Stop it with Ctrl-C.

Serve options:
  --port N             the port (default 5173, or PORT); 0 picks a free one
  --no-demo            leave the embedded demo MCP server off
  --open               open the inspector in the default browser
  --target URL         also watch this MCP endpoint (relay URL printed); repeatable
`;

/** Parses argv (without node and script, `serve` optional). Never throws. */
export function parseServeCommand(argv: readonly string[], env: Record<string, string | undefined>): ServeCommand | { kind: 'usage-error'; message: string } | { kind: 'help' } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        'no-demo': { type: 'boolean' },
        open: { type: 'boolean' },
        target: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return { kind: 'usage-error', message: err instanceof Error ? err.message : String(err) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const extra = positionals.filter((p, i) => !(i === 0 && p === 'serve'));
  if (extra.length > 0) return { kind: 'usage-error', message: `unknown command "${extra[0].slice(0, 40)}"; ${COMMANDS_SENTENCE}` };
  const port = portValue(values.port !== undefined ? '--port' : 'PORT', values.port ?? env.PORT, 5173);
  if (typeof port === 'string') return { kind: 'usage-error', message: port };
  const targets: string[] = [];
  for (const t of values.target ?? []) {
    const url = httpUrlValue('--target', t);
    if (typeof url === 'string') return { kind: 'usage-error', message: url };
    targets.push(url.href);
  }
  return { kind: 'serve', port, demo: !values['no-demo'], open: values.open ?? false, targets };
}
