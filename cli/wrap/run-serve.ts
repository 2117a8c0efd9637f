// `mrtr-inspector wrap --serve`: no client on our stdin; the stdio server becomes the relay
// target `stdio-<name>`, driven from the inspector's Console. We hold
// `POST /relay/stdio-attach/<name>` open and write each line it sends to the server's stdin;
// the server's stdout lines go back, in order, to `/relay/stdio-attach/<name>/out`.
// Recording is the caller's side: the page's service worker (or the relay, for external
// clients) records the HTTP exchanges, so nothing is recorded twice.
//
// Hazard: the inspector may restart while the server runs; we re-attach every second until
// the server ends, and answers lost while detached are answered as errors by the relay.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { terminalSafe } from '../../worker/report/terminal-safe.js';
import { findInspector } from './find-inspector.js';
import { LineSplitter } from './line-splitter.js';
import { cutMessage } from './cut-line.js';
import { SERVE_LINE_BYTES } from '../../server/relay/stdio-attach.js';
import { STDIO_ERA_HEADER } from '../../server/relay/stdio-front.js';
import { EraWatch } from './era-watch.js';
import { TOKEN_HEADER } from './record-sink.js';
import { CANNOT_START, startServer } from './start-server.js';
import type { WrapCommand } from './wrap-args.js';

const RETRY_MS = 1000;
/** The most bytes of lines one POST to the relay carries (a longer line goes alone). */
const SERVE_BATCH_BYTES = 4 * 1024 * 1024;

/** Runs serve mode; resolves to the exit status when the server ends. */
export async function runServe(cmd: WrapCommand): Promise<number> {
  for (const w of cmd.warnings) process.stderr.write(w + '\n');
  // Nothing goes to a listener that cannot prove it is the developer's inspector; each
  // re-attach finds it again (a restarted inspector has a new token and key).
  let found = await findInspector(cmd.inspector.url);
  if ('problem' in found) {
    process.stderr.write(`mrtr-inspector wrap: ${found.problem}\n`);
    return 2;
  }
  let { url, token } = found;
  const attachPath = `/relay/stdio-attach/${encodeURIComponent(cmd.name)}`;
  const child = await startServer(cmd, 'inherit');
  if (!child) return CANNOT_START;
  child.stdin.on('error', () => undefined);
  let ended = false;
  let attached: ClientRequest | null = null;
  let said = '';
  const say = (m: string) => {
    if (m !== said) process.stderr.write(`mrtr-inspector wrap: ${m}\n`);
    said = m;
  };

  // Server → relay: lines batched per tick, one POST at a time, so their order holds; a
  // batch is at most one line or SERVE_BATCH_BYTES, within what the relay reads.
  let pending: string[] = [];
  let sending: Promise<void> | null = null;
  const pump = (): void => {
    if (sending || pending.length === 0) return;
    let size = 0;
    let n = 0;
    while (n < pending.length && (n === 0 || size + pending[n].length <= SERVE_BATCH_BYTES)) size += pending[n++].length + 1;
    const body = pending.slice(0, n).join('\n') + '\n';
    pending = pending.slice(n);
    sending = fetch(new URL(`${attachPath}/out`, url), { method: 'POST', headers: { 'content-type': 'application/x-ndjson', [TOKEN_HEADER]: token }, body })
      .then(async (res) => {
        if (!res.ok) say(`the inspector refused the server's output (HTTP ${res.status}: ${terminalSafe((await res.text()).slice(0, 200))})`);
      }, (err: Error) => say(`cannot reach the inspector at ${url} (${terminalSafe(err.message)})`))
      .finally(() => {
        sending = null;
        pump();
      });
  };
  // An answer longer than the relay takes is not cut (a cut answer is no answer): its caller
  // gets an error saying so, with the id read from the line's ends.
  const fromServer = new LineSplitter((line, cut) => {
    if (cut) {
      const { id } = cutMessage(line.toString('utf8', 0, 1024), cut.tail.toString('utf8'));
      say(`the server wrote a line of ${cut.totalBytes} bytes, more than the ${SERVE_LINE_BYTES} the inspector relays; ${id === undefined ? 'it was dropped' : 'its caller gets an error'}`);
      if (id !== undefined) pending.push(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: `The stdio server's answer is ${cut.totalBytes} bytes, more than the ${SERVE_LINE_BYTES} the inspector relays.` } }));
    } else pending.push(line.toString('utf8'));
    setImmediate(pump);
  }, SERVE_LINE_BYTES);
  child.stdout.on('data', (chunk: Buffer) => fromServer.push(chunk));

  // Relay → server: the attach response is the server's stdin, line by line. The era the
  // server picks from its first line outlives the inspector, so each re-attach tells it.
  const era = new EraWatch();
  let lostName = false;
  const attach = async () => {
    if (ended) return;
    if (!first) {
      found = await findInspector(cmd.inspector.url);
      if ('problem' in found) {
        say(`${found.problem} Retrying.`);
        setTimeout(() => void attach(), RETRY_MS).unref();
        return;
      }
      ({ url, token } = found);
    }
    first = false;
    const headers: Record<string, string | number> = { [TOKEN_HEADER]: token, 'content-length': 0 };
    if (era.era) headers[STDIO_ERA_HEADER] = era.era;
    const req = httpRequest(new URL(attachPath, url), { method: 'POST', headers }, (res) => {
      if (res.statusCode !== 200) {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          // Another wrap holds the name: say so plainly (the Console's calls go to that one).
          if (res.statusCode === 409) lostName = true;
          say(res.statusCode === 409
            ? `the name "${cmd.name}" is taken: another stdio server is attached under it, so the Console's calls to stdio-${cmd.name} do not reach this one. Stop the other wrap, or restart this one with --name <another>. Retrying.`
            : `the inspector refused to attach "${cmd.name}" (HTTP ${res.statusCode}: ${terminalSafe(text.slice(0, 200))})`);
          setTimeout(() => void attach(), RETRY_MS).unref();
        });
        return;
      }
      if (lostName) say(`the name "${cmd.name}" is ours again`);
      lostName = false;
      say(`serving "${cmd.name}" as relay target stdio-${cmd.name} (Console URL ${new URL(`/relay/stdio/${encodeURIComponent(cmd.name)}`, url).href})`);
      res.on('data', (chunk: Buffer) => {
        child.stdin.write(chunk);
        era.push(chunk);
      });
      res.on('close', () => {
        if (!ended) setTimeout(() => void attach(), RETRY_MS).unref();
      });
    });
    req.on('error', (err) => {
      say(`cannot reach the inspector at ${url} (${terminalSafe(err.message)}); retrying`);
      setTimeout(() => void attach(), RETRY_MS).unref();
    });
    req.end();
    attached = req;
  };
  let first = true;
  void attach();

  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((sig) => [sig, () => child.kill(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (c, s) => resolve([c, s])));
  ended = true;
  (attached as ClientRequest | null)?.destroy();
  fromServer.end();
  pump();
  await sending;
  for (const [sig, h] of handlers) process.off(sig, h);
  if (signal) say(`the server was ended by ${signal}`);
  return code ?? 1;
}
