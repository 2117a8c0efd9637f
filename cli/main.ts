// `mrtr-inspector`: the Node host of the analysis core. Reads a capture, analyses it with
// the same modules the web worker uses, prints a report, and exits 0, 1 or 2.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createRequire } from 'node:module';
import { analyzeBatch } from '../worker/engine/batch.js';
import type { HmacSha256Check } from '../worker/tokens/index.js';
import { decodeExchange, releaseBodies } from '../worker/decode/exchange.js';
import type { DecodedExchange } from '../worker/protocol.js';
import { parseKeys, readCapture, say } from './capture-input.js';
import { ALL_RULES } from '../worker/lint/rules/index.js';
import { jsonReportChunks } from '../worker/report/json.js';
import { sarifReportChunks } from '../worker/report/sarif.js';
import { junitReportChunks } from '../worker/report/junit.js';
import { textReportChunks } from '../worker/report/text.js';
import { terminalSafe } from '../worker/report/terminal-safe.js';
import { parseCommand, USAGE } from './args.js';
import { runReplayCommand } from './replay.js';
import { runWrap } from './wrap/run-wrap.js';
import { runServe } from './wrap/run-serve.js';

/** The package version, read once from package.json. */
export function version(): string {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
}

/** Runs the CLI; resolves to the exit status. Output goes to stdout/stderr. */
export async function main(argv: readonly string[]): Promise<number> {
  const cmd = parseCommand(argv);
  switch (cmd.kind) {
    case 'help': process.stdout.write(USAGE); return 0;
    case 'version': process.stdout.write(version() + '\n'); return 0;
    case 'usage-error': process.stderr.write(`mrtr-inspector: ${terminalSafe(cmd.message)}\n\n${USAGE}`); return 2;
    case 'replay': return runReplayCommand(cmd, version());
    case 'wrap': return cmd.serve ? runServe(cmd) : runWrap(cmd);
    // Loaded only for serve: the server pulls in the MCP SDK (the demo), which lint and
    // wrap (started by every client of a wrapped server) must not wait for.
    case 'serve': return (await import('./serve.js')).runServeCommand(cmd);
    // Loaded only for check: its engine is not needed by the other commands.
    case 'check': return (await import('./check/run-check.js')).runCheckCommand(cmd, version());
    case 'mock': return (await import('./mock/run-mock.js')).runMockCommand(cmd);
  }

  const keys = parseKeys(cmd.keys);
  if (!keys.ok) return (say(keys.message), 2);
  // No report shows raw bodies: each record is decoded as it is read and gives its bodies
  // up at once, while they are young (cheap to collect, never copied into the old heap).
  const decoded: DecodedExchange[] = [];
  const imported = await readCapture(cmd.path, cmd.allowPartial, (record, i) => {
    decoded[i] = decodeExchange(record);
    releaseBodies(record);
  });
  if (!imported.ok) return (say(imported.message), 2);
  decoded.length = imported.exchanges.length;

  const input = { path: cmd.path, format: imported.format, exchanges: countEntries(imported.exchanges, imported.skipped.length) };
  const analysis = await analyzeBatch(imported.exchanges, { keys: keys.keys, maxRounds: cmd.maxRounds, ttlBoundSeconds: cmd.ttlBound, hmac: nodeHmacSha256, decoded });
  // Every format is written as it is made, a piece at a time: never one whole report.
  let chunks: Iterable<string>;
  switch (cmd.format) {
    case 'json': chunks = jsonReportChunks(analysis, input, version()); break;
    case 'sarif': chunks = sarifReportChunks(analysis.findings, ALL_RULES, cmd.path, version()); break;
    case 'junit': chunks = junitReportChunks(analysis.conversations, analysis.findings, cmd.path); break;
    case 'text': chunks = textReportChunks(analysis, input, cmd.output === undefined && (cmd.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR))); break;
  }
  try {
    await writeAll(chunks, cmd.output);
  } catch (err) {
    say(`cannot write ${cmd.output ?? 'standard output'}: ${(err as Error).message}`);
    return 2;
  }
  return analysis.findings.some((f) => f.severity === 'error') ? 1 : 0;
}

/** HMAC-SHA256 through node:crypto, synchronous: ~2 µs a token where WebCrypto's promise
 *  costs ~18 µs in Node. timingSafeEqual keeps the comparison constant-time; it needs equal
 *  lengths, and a MAC's length is no secret. */
const nodeHmacSha256: HmacSha256Check = (key, data, mac) =>
  mac.length === 32 && timingSafeEqual(createHmac('sha256', key).update(data).digest(), mac);

/** Writes the pieces in order with back-pressure, to a file or stdout, and waits for the
 *  last byte: piped output must never be cut at exit. */
async function writeAll(chunks: Iterable<string>, path: string | undefined): Promise<void> {
  const out: Writable = path !== undefined ? createWriteStream(path) : process.stdout;
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  let buffer = '';
  const flush = async () => {
    if (!out.write(buffer)) await Promise.race([once(out, 'drain'), failed]);
    buffer = '';
  };
  for (const c of chunks) {
    buffer += c;
    if (buffer.length > 1 << 16) await flush();
  }
  await flush();
  if (path !== undefined) {
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
  } else {
    await Promise.race([new Promise<void>((resolve) => out.write('', () => resolve())), failed]);
  }
}

/** Entries in the input file: the highest position seen, counting skipped ones too. */
function countEntries(exchanges: readonly { seq: number }[], skipped: number): number {
  let max = -1;
  for (const e of exchanges) if (e.seq > max) max = e.seq;
  return Math.max(max + 1, exchanges.length + skipped);
}
