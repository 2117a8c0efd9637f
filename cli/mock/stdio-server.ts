// The mock over stdio: one JSON-RPC message a line on stdin, the recorded answer's messages
// a line each on stdout (a stream's notifications first, as recorded). Requests are answered
// one after another, so two answers' lines never interleave.
import type { Readable, Writable } from 'node:stream';
import { LineSplitter } from '../wrap/line-splitter.js';
import { answerClock, type MockTiming } from '../../worker/mock/http-answer.js';
import type { MockMatcher } from '../../worker/mock/matcher.js';

export interface MockStdioOptions {
  timing: MockTiming;
  log: (line: string) => void;
}

/** The longest line read; a longer one is answered with an error (never held whole). */
const MAX_LINE = 16 * 1024 * 1024;

/** Serves until `input` ends and every answer is written; resolves to the count answered. */
export function serveMockStdio(matcher: MockMatcher, input: Readable, output: Writable, opts: MockStdioOptions): Promise<number> {
  let answered = 0;
  let queue = Promise.resolve();
  const write = (line: string) => new Promise<void>((resolve) => (output.write(line + '\n') ? resolve() : output.once('drain', resolve)));
  const answer = async (line: Buffer, cut: boolean) => {
    const text = line.toString('utf8').trim();
    if (text === '') return;
    let message: unknown;
    try {
      if (cut) throw new Error(`the line is over ${MAX_LINE} bytes`);
      message = JSON.parse(text);
    } catch (err) {
      return write(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${(err as Error).message}` } }));
    }
    const outcome = matcher.handle(message);
    if (outcome.kind === 'accepted') return;
    if (outcome.kind === 'mismatch') {
      opts.log(`mismatch: ${outcome.error.message.replace(/^mrtr-inspector mock: /, '')}`);
      return write(JSON.stringify({ jsonrpc: '2.0', id: outcome.id ?? null, error: outcome.error }));
    }
    answered++;
    if (outcome.warning) opts.log(`warning: ${outcome.warning}`);
    const wait = answerClock(opts.timing);
    for (const m of outcome.messages) {
      await wait(m.at);
      if (m.text !== '') await write(m.text);
    }
  };
  const lines = new LineSplitter((line, cutInfo) => {
    const copy = Buffer.from(line);
    queue = queue.then(() => answer(copy, cutInfo !== undefined)).catch((err: Error) => opts.log(`internal error: ${err.message}`));
  }, MAX_LINE);
  return new Promise((resolve) => {
    input.on('data', (chunk: Buffer) => lines.push(chunk));
    input.once('end', () => {
      lines.end();
      void queue.then(() => resolve(answered));
    });
  });
}
