// Parsing for `mrtr-inspector [serve]`: a pure function, tested without a process.
import { parseArgs } from 'node:util';

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
  if (extra.length > 0) return { kind: 'usage-error', message: `unknown command "${extra[0].slice(0, 40)}"; the commands are "serve" (the default), "lint", "replay" and "wrap"` };
  const raw = values.port ?? env.PORT;
  const port = raw === undefined || raw === '' ? 5173 : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { kind: 'usage-error', message: `--port needs a port number 0-65535, got "${String(raw).slice(0, 20)}"` };
  const targets: string[] = [];
  for (const t of values.target ?? []) {
    let url: URL;
    try {
      url = new URL(t);
    } catch {
      return { kind: 'usage-error', message: `--target needs an absolute http(s) URL, e.g. http://localhost:3000/mcp; got "${t.slice(0, 80)}"` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'usage-error', message: `--target needs an http(s) URL; got "${t.slice(0, 80)}"` };
    targets.push(url.href);
  }
  return { kind: 'serve', port, demo: !values['no-demo'], open: values.open ?? false, targets };
}
