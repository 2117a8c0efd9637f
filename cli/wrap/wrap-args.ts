// Command-line parsing for `mrtr-inspector wrap`: a pure function, tested without a process.
// Everything after `--` is the server command and is never read as our options.
import { parseArgs } from 'node:util';
import { basename, extname } from 'node:path';
import { defaultJsonlPath, relayDir } from '../../server/relay/capture-path.js';
import { inspectorPorts } from '../../server/relay/info-file.js';
import { folderNameOf, GENERIC_SCRIPT_NAMES, packageNameNear } from './package-name.js';

/** A parsed `wrap` command. */
export interface WrapCommand {
  kind: 'wrap';
  /** The server's name (URL `stdio://<name>`, relay target `stdio-<name>`). */
  name: string;
  command: string;
  args: string[];
  /** Serve mode: no client on our stdin; the inspector's Console drives the server. */
  serve: boolean;
  /** The inspector's origin; its relay token is read, once it proved itself, from its 0600 info file (find-inspector.ts). */
  inspector: { url: string };
  /** The JSONL capture file to fall back to (the inspector's own, named for its port). */
  capture: string;
  /** The capture file was chosen (--capture, MRTR_RELAY_JSONL), not the inspector's default. */
  captureChosen: boolean;
  /** Said on stderr at start (e.g. --token given: the token was in argv). */
  warnings: string[];
}

export const WRAP_USAGE = `
       mrtr-inspector wrap [--name NAME] [options] -- <server command…>
       mrtr-inspector wrap --serve [--name NAME] [options] -- <server command…>

wrap runs a stdio MCP server as its child: put it in place of the server command in a
client's configuration. Bytes pass through unchanged; each request and its answer is
recorded as a stdio://NAME exchange in the running inspector (or, with none running, in its
capture file, which the page drains when it opens). With --serve no client is attached:
the server becomes the relay target stdio-NAME, driven from the inspector's Console.

Wrap options:
  --name NAME          the server's name (default: from the command)
  --inspector URL      the inspector's address (default MRTR_INSPECTOR_URL, else http://127.0.0.1:5173)
  --capture FILE       the capture file (default MRTR_RELAY_JSONL, else the inspector's own)

wrap reads the relay token from the inspector's info file (readable only by you, in
MRTR_RELAY_DIR, default <tmp>/mrtr-inspector-<uid>/), and sends nothing until the
inspector proves it is yours. --token is ignored: a token in argv is visible in ps.
`;

const RUNNERS = new Set(['node', 'nodejs', 'npx', 'tsx', 'bun', 'bunx', 'deno', 'python', 'python3', 'uv', 'uvx', 'pipx', 'ruby', 'java', 'dotnet', 'go', 'cargo', 'sh', 'bash', 'npm', 'pnpm', 'yarn']);

/** A name for the server from its command line: the script or package, not the runner. A
 *  script with a generic name (`dist/index.js`) is named by its package (`server-memory`),
 *  or by its folder when no package.json is near. */
export function defaultName(command: string, args: readonly string[], packageOf: (script: string) => string | null = packageNameNear): string {
  const words = [command, ...args].filter((w) => !w.startsWith('-'));
  const pick = words.find((w, i) => i > 0 || !RUNNERS.has(basename(w))) ?? command;
  const base = basename(pick.replace(/@[^/@]*$/, '')).replace(extname(pick), '') || 'server';
  if (GENERIC_SCRIPT_NAMES.has(base.toLowerCase())) return safeName(packageOf(pick) ?? folderNameOf(pick) ?? base);
  return safeName(base);
}

/** Where wrap looks for the inspector when nothing says otherwise. */
export const DEFAULT_INSPECTOR = 'http://127.0.0.1:5173';

const portOfUrl = (url: string): number => Number(new URL(url).port || 80);

/** Names travel in URLs and target ids: keep them to a safe alphabet. */
export function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64) || 'server';
}

/** Parses the arguments after `wrap`; a string is a usage error. */
export function parseWrapCommand(argv: readonly string[], env: Record<string, string | undefined>, defaultCapture?: string, runningPorts: (dir: string) => number[] = inspectorPorts): WrapCommand | string {
  const dd = argv.indexOf('--');
  const own = dd === -1 ? [...argv] : argv.slice(0, dd);
  const server = dd === -1 ? [] : argv.slice(dd + 1);
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: own,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        inspector: { type: 'string' },
        token: { type: 'string' },
        capture: { type: 'string' },
        serve: { type: 'boolean' },
      },
    }));
  } catch (err) {
    return (err as Error).message;
  }
  if (positionals[0] === 'wrap') positionals = positionals.slice(1);
  if (positionals.length > 0) return `wrap takes the server command after "--": mrtr-inspector wrap -- ${positionals.join(' ')}`;
  if (server.length === 0) return 'wrap needs the server command after "--": mrtr-inspector wrap -- node my-server.js';
  const [command, ...args] = server;
  const given = values.inspector ?? env.MRTR_INSPECTOR_URL;
  const warnings: string[] = [];
  let url = given ?? DEFAULT_INSPECTOR;
  try {
    new URL(url);
  } catch {
    return `--inspector must be a URL such as ${DEFAULT_INSPECTOR}, got "${url}"`;
  }
  // No address given (clients such as the MCP Inspector CLI and the SDKs' defaults start
  // wrap with an empty environment): the inspector is found by its info file in the per-user
  // folder, so one running on another port is still found, and its capture file used.
  if (given === undefined) {
    const ports = runningPorts(relayDir(env));
    const port = portOfUrl(DEFAULT_INSPECTOR);
    if (ports.length === 1 && ports[0] !== port) url = `http://127.0.0.1:${ports[0]}`;
    else if (ports.length > 1 && !ports.includes(port)) {
      warnings.push(`mrtr-inspector wrap: inspectors of yours are running on ports ${ports.join(', ')}; wrap looks for the default one at ${DEFAULT_INSPECTOR}. Choose one with --inspector http://127.0.0.1:<port>.`);
    }
  }
  const serve = values.serve ?? false;
  if (values.token !== undefined) warnings.push('mrtr-inspector wrap: --token is ignored: a token on the command line shows in ps to every user. wrap reads it from the inspector\'s own 0600 info file; drop --token.');
  const port = portOfUrl(url);
  return {
    kind: 'wrap',
    name: values.name !== undefined ? safeName(values.name) : defaultName(command, args),
    command, args, serve,
    inspector: { url },
    warnings,
    capture: values.capture ?? env.MRTR_RELAY_JSONL ?? defaultCapture ?? defaultJsonlPath(port, relayDir(env)),
    captureChosen: (values.capture ?? env.MRTR_RELAY_JSONL) !== undefined,
  };
}
