// `npm start`: builds the inspector (page + service worker) and serves it with the relay and
// the embedded demo server on http://127.0.0.1:5173, all in this one process (vite preview
// with the relay plugin). Port: `--port N` or PORT; `--no-build` serves the last build.
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';

const CONFIG = fileURLToPath(new URL('../vite.config.ts', import.meta.url));

// The port from `--port N`, `--port=N` or PORT, else 5173; anything else is a usage error.
function parsePort(argv: string[], env: NodeJS.ProcessEnv): number {
  let raw = env.PORT;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') raw = argv[++i];
    else if (argv[i].startsWith('--port=')) raw = argv[i].slice('--port='.length);
  }
  if (raw === undefined || raw === '') return 5173;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`Invalid port ${JSON.stringify(raw)}: use --port <0-65535> or PORT=<0-65535>.`);
  }
  return port;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const port = parsePort(argv, process.env);
  if (!argv.includes('--no-build')) await build({ configFile: CONFIG, logLevel: 'warn' });
  // strictPort: a busy port is an error, never a silent move to another port, because the
  // relay URL printed for external clients names this one.
  const server = await preview({ configFile: CONFIG, preview: { host: '127.0.0.1', port, strictPort: true } });
  // Close cleanly on Ctrl-C so queued capture-file writes land before exit.
  process.once('SIGINT', () => {
    void server.close().finally(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  console.error(`mrtr-inspector failed to start: ${(err as Error)?.message ?? String(err)}`);
  process.exit(1);
});
