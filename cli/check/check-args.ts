// Command-line parsing for `mrtr-inspector check`: a pure function, tested without a process.
import { parseArgs } from 'node:util';
import { CHECK_DEFAULTS } from '../../worker/check/defaults.js';
import { choiceValue, httpUrlValue, numberValue } from '../option-values.js';

/** The parsed `check` command. */
export interface CheckCommand {
  kind: 'check';
  /** The MCP endpoint, or absent when a stdio command follows `--`. */
  url?: string;
  /** A stdio server to start and check (everything after `--`). */
  stdio?: { command: string; args: string[] };
  tools: string[];
  skip: string[];
  allowDestructive: boolean;
  args: Record<string, Record<string, unknown>>;
  roots: { uri: string }[];
  keys: string[];
  format: 'text' | 'json' | 'sarif' | 'junit';
  maxWaitMs: number;
  maxCalls: number;
  maxTimeMs: number;
  concurrency: number;
  timeoutMs: number;
  output?: string;
  save?: string;
  color?: boolean;
}

/** The check part of the help text. */
export const CHECK_USAGE = `
Check audits a live server's multi round-trip handling: it discovers the tools, prompts and
resources, drives each through all its rounds (arguments from inputSchema, forms accepted,
then declined and cancelled), and probes every multi-round call (token modified,
truncated, swapped, on another tool, dropped, re-used in parallel, expired, replayed after
completion; inputResponses missing, unknown, of the wrong kind; arguments changed; a
re-used id), each with the clause it checks.

  mrtr-inspector check <url> [options]
  mrtr-inspector check [options] -- <stdio server command…>

Check options:
  --tool GLOB          check only these tools/prompts/resources (repeatable; * and ?); a
                       named tool runs even when it is not marked read-only
  --skip GLOB          leave these out (repeatable)
  --allow-destructive  also call tools not annotated readOnlyHint: true
  --args NAME=JSON     arguments for tool or prompt NAME, laid over the ones built from
                       its schema, e.g. --args 'get_weather={"city":"Paris"}' (repeatable)
  --root URI           a root to answer roots/list with (repeatable; default none)
  --max-wait SECONDS   wait up to this long for a token to expire, to test expiry (default ${CHECK_DEFAULTS.maxWaitMs / 1000})
  --max-calls N        send at most N requests in all (default ${CHECK_DEFAULTS.maxCalls})
  --max-time SECONDS   stop sending after this long (default ${CHECK_DEFAULTS.maxTimeMs / 1000})
  --concurrency N      at most N requests in flight (default ${CHECK_DEFAULTS.concurrency})
  --timeout SECONDS    give up on one request after this long (default ${CHECK_DEFAULTS.timeoutMs / 1000})
  --save FILE          write the whole session as a JSONL capture the page opens
  --key SECRET, --format FORMAT, --output FILE, --no-color   as for lint

Check exit status: 0 no failed probe and no error-severity finding, 1 otherwise, 2 the
server could not be reached or checked at all, or the options are wrong.
`;

type Usage = { kind: 'usage-error'; message: string } | { kind: 'help' };

/** `--args NAME=JSON` values, merged per name; a message naming the bad one otherwise. */
function parseToolArgs(list: readonly string[]): Record<string, Record<string, unknown>> | string {
  const args: Record<string, Record<string, unknown>> = {};
  for (const a of list) {
    const eq = a.indexOf('=');
    if (eq <= 0) return `--args needs NAME=JSON, got "${a}"`;
    const name = a.slice(0, eq);
    let v: unknown;
    try {
      v = JSON.parse(a.slice(eq + 1));
    } catch (err) {
      return `--args ${name}: the value is not JSON (${(err as Error).message})`;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) return `--args ${name}: the value must be a JSON object of arguments`;
    args[name] = { ...(args[name] ?? {}), ...(v as Record<string, unknown>) };
  }
  return args;
}

/** Parses `check …` argv (the server command after `--` left alone). Never throws. */
export function parseCheckCommand(argv: readonly string[]): CheckCommand | Usage {
  const dd = argv.indexOf('--');
  const ours = dd === -1 ? argv : argv.slice(0, dd);
  const stdio = dd === -1 ? undefined : argv.slice(dd + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...ours], allowPositionals: true,
      options: {
        tool: { type: 'string', multiple: true }, skip: { type: 'string', multiple: true }, 'allow-destructive': { type: 'boolean' },
        args: { type: 'string', multiple: true }, root: { type: 'string', multiple: true }, key: { type: 'string', multiple: true },
        format: { type: 'string' }, 'max-wait': { type: 'string' }, 'max-calls': { type: 'string' }, 'max-time': { type: 'string' },
        concurrency: { type: 'string' }, timeout: { type: 'string' }, output: { type: 'string', short: 'o' }, save: { type: 'string' },
        'no-color': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return { kind: 'usage-error', message: err instanceof Error ? err.message : String(err) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const [, url, ...rest] = positionals;
  if (rest.length > 0) return { kind: 'usage-error', message: `unexpected argument "${rest[0]}" (one server per run)` };
  if (stdio !== undefined && stdio.length === 0) return { kind: 'usage-error', message: 'check needs a command after "--": mrtr-inspector check -- node my-server.js' };
  if (url !== undefined && stdio !== undefined) return { kind: 'usage-error', message: 'check takes a URL or a stdio command after "--", not both' };
  if (url === undefined && stdio === undefined) return { kind: 'usage-error', message: 'check needs a server: mrtr-inspector check <url>, or mrtr-inspector check -- <stdio server command>' };
  if (url !== undefined) {
    const u = httpUrlValue('check', url);
    if (typeof u === 'string') return { kind: 'usage-error', message: u };
  }
  const format = choiceValue('--format', values.format, ['text', 'json', 'sarif', 'junit'] as const, 'text');
  if (typeof format === 'object') return { kind: 'usage-error', message: format.error };
  const args = parseToolArgs(values.args ?? []);
  if (typeof args === 'string') return { kind: 'usage-error', message: args };
  const seconds = { unit: 'seconds' };
  const numbers = {
    maxWait: numberValue('--max-wait', values['max-wait'], CHECK_DEFAULTS.maxWaitMs / 1000, { ...seconds, allowZero: true }),
    maxCalls: numberValue('--max-calls', values['max-calls'], CHECK_DEFAULTS.maxCalls, { integer: true }),
    maxTime: numberValue('--max-time', values['max-time'], CHECK_DEFAULTS.maxTimeMs / 1000, seconds),
    concurrency: numberValue('--concurrency', values.concurrency, CHECK_DEFAULTS.concurrency, { integer: true }),
    timeout: numberValue('--timeout', values.timeout, CHECK_DEFAULTS.timeoutMs / 1000, seconds),
  };
  for (const v of Object.values(numbers)) if (typeof v === 'string') return { kind: 'usage-error', message: v };
  const n = numbers as Record<keyof typeof numbers, number>;
  return {
    kind: 'check', ...(url !== undefined ? { url } : {}), ...(stdio !== undefined ? { stdio: { command: stdio[0], args: stdio.slice(1) } } : {}),
    tools: values.tool ?? [], skip: values.skip ?? [], allowDestructive: values['allow-destructive'] ?? false, args,
    roots: (values.root ?? []).map((uri) => ({ uri })), keys: values.key ?? [], format,
    maxWaitMs: n.maxWait * 1000, maxCalls: n.maxCalls, maxTimeMs: n.maxTime * 1000, concurrency: n.concurrency, timeoutMs: n.timeout * 1000,
    ...(values.output !== undefined ? { output: values.output } : {}), ...(values.save !== undefined ? { save: values.save } : {}), ...(values['no-color'] ? { color: false } : {}),
  };
}
