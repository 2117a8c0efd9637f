// Copying a stdio exchange's request. A line written to a wrapped server's stdin has no URL,
// method or headers, so `curl 'stdio://…'` would run nothing; what re-runs it is the line
// itself, piped into the server's command. The record does not hold the command (wrap's
// argv may carry secrets), so the pipe reads it from $SERVER, which the user sets.
import type { ExchangeRecord } from '../protocol.js';
import { printfCommand, shellQuote } from './shell-quote.js';

/** The JSON-RPC line the client wrote (without its newline). */
export function stdioLine(record: ExchangeRecord): string {
  return record.request.body ?? '';
}

/**
 * A POSIX-shell pipe that writes the line, with its newline, into `$SERVER`: printf '%s\n'
 * with the line single-quoted, or printf '%b' for a line holding NUL (which a shell argument
 * cannot carry). Run with SERVER='node my-server.js' (2026-07-28 requests carry their
 * protocol version in `_meta`, so one line needs no initialize before it).
 */
export function stdioPipe(record: ExchangeRecord): string {
  const line = stdioLine(record);
  const name = record.stdio?.name ?? 'server';
  const write = line.includes('\0') ? printfCommand(`${line}\n`) : `printf '%s\\n' ${shellQuote(line)}`;
  return `# The line the client wrote to stdio://${name.replace(/[\r\n]/g, ' ')}; set SERVER to the server's command first.\n${write} | $SERVER`;
}
