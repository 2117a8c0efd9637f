// `mrtr-inspector` with no command, or `serve`: the inspector page, the relay and the
// embedded demo server on 127.0.0.1, from the prebuilt page beside the compiled CLI.
// Runs until Ctrl-C or SIGTERM, then closes so queued capture-file writes land first.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startInspectorServer } from '../server/serve/inspector-server.js';
import type { ServeCommand } from './serve-args.js';

/** The built page: dist/web, beside dist/cli where this file runs from. */
const WEB_ROOT = fileURLToPath(new URL('../web', import.meta.url));

/** Starts the server and resolves to the exit status once it is stopped by a signal. */
export async function runServeCommand(cmd: ServeCommand): Promise<number> {
  if (!existsSync(`${WEB_ROOT}/index.html`)) {
    process.stderr.write(`mrtr-inspector: the inspector page is not built (no ${WEB_ROOT}/index.html). In the repository run \`npm run build\` (or \`npm start\`, which builds when needed).\n`);
    return 2;
  }
  let server;
  try {
    server = await startInspectorServer({ webRoot: WEB_ROOT, port: cmd.port, demo: cmd.demo, targets: cmd.targets });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EADDRINUSE' ? `port ${cmd.port} is in use; pick another with --port N (or --port 0 for any free one)` : e.message;
    process.stderr.write(`mrtr-inspector failed to start: ${why}\n`);
    return 1;
  }
  process.stdout.write(server.banner + '\n');
  // The link with the page token: the browser it opens is let in (page-login.ts).
  if (cmd.open) openBrowser(server.pageUrl);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve(sig));
  });
  process.stderr.write(`mrtr-inspector: stopping (${signal})\n`);
  await server.close();
  return 0;
}

// The platform's opener, detached: the browser must outlive nothing of ours, and a missing
// opener only costs the user a click on the printed URL.
function openBrowser(url: string): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write(`mrtr-inspector: could not open a browser (${cmd}); open the Inspector link printed above yourself.\n`));
  child.unref();
}
