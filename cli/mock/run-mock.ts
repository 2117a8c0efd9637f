// `mrtr-inspector mock`: reads a capture, builds the book of recorded answers, serves it over
// HTTP (until Ctrl-C or SIGTERM) or stdio (until standard input ends), then logs the
// summary and writes --report. The decisions are worker/mock's; this file is the host.
import { writeFile } from 'node:fs/promises';
import { readCapture, say } from '../capture-input.js';
import { buildMockBook, type MockBook } from '../../worker/mock/book.js';
import { MockMatcher } from '../../worker/mock/matcher.js';
import { summarize, summaryJunit, summaryText } from '../../worker/mock/summary.js';
import { terminalSafe } from '../../worker/report/terminal-safe.js';
import { startMockHttp } from './http-server.js';
import { serveMockStdio } from './stdio-server.js';
import type { MockCommand } from './mock-args.js';

const log = (line: string) => void process.stderr.write(`mrtr-inspector mock: ${terminalSafe(line)}\n`);

/** Reads the capture and builds its book. The records go out of scope here: while the mock
 *  serves, its heap holds the book (and the answers' text), not the whole capture, and
 *  every collection while it serves has that much less to mark. */
async function readBook(cmd: MockCommand): Promise<MockBook | null> {
  const imported = await readCapture(cmd.path, cmd.allowPartial);
  if (!imported.ok) return (say(imported.message), null);
  return buildMockBook(imported.exchanges);
}

/** Runs a parsed mock command; resolves to the exit status once it is stopped. */
export async function runMockCommand(cmd: MockCommand): Promise<number> {
  const book = await readBook(cmd);
  if (book === null) return 2;
  if (book.calls.length === 0) return (say(`${cmd.path}: nothing to serve: the capture holds no JSON-RPC requests`), 2);
  const matcher = new MockMatcher(book, { strict: cmd.strict });
  const what = `${book.calls.length} recorded call(s) from ${cmd.path}${cmd.strict ? ' (strict)' : ''}`;

  let answered: number;
  if (cmd.stdio) {
    log(`serving ${what} on standard input and output`);
    answered = await serveMockStdio(matcher, process.stdin, process.stdout, { timing: cmd.timing, log });
  } else {
    let server;
    try {
      server = await startMockHttp(matcher, { port: cmd.port, timing: cmd.timing, log });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      say(e.code === 'EADDRINUSE' ? `port ${cmd.port} is in use; pick another with --port N (or leave it out for any free one)` : `cannot listen: ${e.message}`);
      return 2;
    }
    process.stdout.write(`mrtr-inspector mock: serving ${what} at ${server.url}\n`);
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve(sig));
    });
    log(`stopping (${signal})`);
    answered = server.answered();
    await server.close();
  }

  const summary = summarize(matcher, cmd.path, answered);
  process.stderr.write(summaryText(summary).split('\n').map(terminalSafe).join('\n'));
  if (cmd.report !== undefined) {
    try {
      await writeFile(cmd.report, /\.xml$/i.test(cmd.report) ? summaryJunit(summary) : JSON.stringify(summary, null, 2) + '\n');
    } catch (err) {
      return (say(`cannot write the report ${cmd.report}: ${(err as Error).message}`), 2);
    }
  }
  return summary.mismatches.length > 0 ? 1 : 0;
}
