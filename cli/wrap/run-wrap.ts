// `mrtr-inspector wrap` in tap mode: runs the server command as a child with its stdin,
// stdout and stderr passed through, and records copies of the lines as exchanges.
//
// Hazard: the client must see exactly what it would see without us. Every chunk is written
// on before a copy of it is parsed, nothing waits on recording, back-pressure is honoured in
// both directions, our own messages go only to stderr, and we exit the way the child did
// (same code, or the same signal re-raised).
import { randomUUID } from 'node:crypto';
import { findInspector } from './find-inspector.js';
import { LineSplitter, type CutLine } from './line-splitter.js';
import { DeferredCopies } from './deferred-copies.js';
import { RecordSink } from './record-sink.js';
import { StdioPairing, type LineInfo, type StopRequest } from './stdio-pairing.js';
import { MAX_RECORDED_BYTES } from '../../server/relay/exchange-recorder.js';
import { DEFAULT_RECORDING_BUDGET, RecordingBudget } from '../../server/relay/recording-budget.js';
import { CANNOT_START, startServer } from './start-server.js';
import type { WrapCommand } from './wrap-args.js';

/** How much of the child's stderr is kept for a crash report. */
const STDERR_TAIL = 4096;
/** How long the relay may take to take the last records after the child ends; the rest go to the file. */
const FLUSH_LIMIT_MS = 3000;
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Runs the wrap; resolves to the exit status (or never, when the child's signal is re-raised). */
export async function runWrap(cmd: WrapCommand): Promise<number> {
  const client = `stdio:${cmd.name}:${process.pid}`;
  const warn = warnOnce();
  for (const w of cmd.warnings) warn(w);
  // Nothing goes to a listener that cannot prove it is the developer's inspector.
  const found = await findInspector(cmd.inspector.url);
  // Said once, also when no inspector runs and the file is the default one: a client that
  // starts wrap with an empty environment would otherwise have it write there unseen. A
  // capture file the user chose needs no word (and the server's stderr stays as it was).
  if ('problem' in found && (!found.absent || !cmd.captureChosen)) warn(`mrtr-inspector wrap: ${found.problem} Recording to ${cmd.capture} instead (the inspector page drains it when it opens).`);
  const sink = new RecordSink({ file: cmd.capture, warn, ...('problem' in found ? {} : { inspector: found }) });
  const budget = new RecordingBudget(DEFAULT_RECORDING_BUDGET);
  const pairing = new StdioPairing({ name: cmd.name, client, emit: (r) => sink.put(r), newId: randomUUID, maxRecorded: MAX_RECORDED_BYTES, budget });

  const child = await startServer(cmd, 'pipe');
  if (!child) return CANNOT_START;

  // Copies of the lines, each at most what one record keeps: a line with no end (or a 600 MB
  // one) is cut, counted, and recorded as cut; the pass-through never waits on it.
  const info = (line: Buffer, cut?: CutLine): LineInfo => ({ bytes: line.length, ...(cut ? { totalBytes: cut.totalBytes, tail: cut.tail.toString('utf8') } : {}) });
  const fromClient = new LineSplitter((line, cut) => pairing.clientLine(line.toString('utf8'), copies.at, info(line, cut)), MAX_RECORDED_BYTES);
  const fromServer = new LineSplitter((line, cut) => pairing.serverLine(line.toString('utf8'), copies.at, info(line, cut)), MAX_RECORDED_BYTES);
  // Forward first, record after: copies are read once the pass-through has handled every
  // chunk that is ready, so an answer that arrived meanwhile is not held up by recording.
  const copies = new DeferredCopies();
  let stderrTail = '';

  // Client → server. A child that has exited makes its stdin fail with EPIPE: the client
  // then learns of it from the closed stdout, as it would without us.
  child.stdin.on('error', () => undefined);
  process.stdin.on('data', (chunk: Buffer) => {
    if (!child.stdin.write(chunk)) {
      process.stdin.pause();
      child.stdin.once('drain', () => process.stdin.resume());
    }
    copies.add(fromClient, chunk);
  });
  process.stdin.on('end', () => {
    child.stdin.end();
    copies.end(fromClient);
  });
  process.stdin.on('error', () => child.stdin.end());

  // Server → client, and its stderr.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  child.stdout.on('data', (chunk: Buffer) => {
    if (!process.stdout.write(chunk)) {
      child.stdout.pause();
      process.stdout.once('drain', () => child.stdout.resume());
    }
    copies.add(fromServer, chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });

  // The client's signal, passed on: the server ending from it is a shutdown, not a crash.
  let stopped: StopRequest | undefined;
  const forward = (sig: NodeJS.Signals) => () => {
    stopped ??= { signal: sig };
    child.kill(sig);
  };
  const handlers = FORWARDED.map((sig) => [sig, forward(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);

  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (c, s) => resolve([c, s])));
  copies.end(fromServer);
  copies.drain();
  pairing.exit({ code, signal, stderrTail }, undefined, stopped);
  // Nothing more comes from the client that matters; let the process end when we are done.
  process.stdin.pause();
  process.stdin.unref?.();
  // The relay gets FLUSH_LIMIT_MS; what it has not taken by then goes to the file.
  await sink.close(FLUSH_LIMIT_MS);
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  for (const [sig, h] of handlers) process.off(sig, h);
  if (signal) {
    process.kill(process.pid, signal);
    // Signals that do not end us by default still must not leave us running.
    await new Promise((r) => setTimeout(r, 100));
    return 128 + 1;
  }
  return code ?? 1;
}

// Problems are said once each: a client's log is no place for a stream of warnings.
function warnOnce(): (message: string) => void {
  const said = new Set<string>();
  return (m) => {
    if (said.has(m)) return;
    said.add(m);
    process.stderr.write(m + '\n');
  };
}
