// `mrtr-inspector replay`: re-runs a capture's conversations against a server and exits 1
// when a final answer differs or the new traffic has an error-severity finding: a
// regression test for a server's MRTR flows in CI. The work is worker/console's; this file
// only parses options, reads the file, prints, and picks the exit status.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { analyze } from '../worker/analysis.js';
import { parseKeys, readCapture, say } from './capture-input.js';
import { planReplay, runReplay } from '../worker/console/replay.js';
import { checkIgnoreList, DEFAULT_IGNORE } from '../worker/console/result-diff.js';
import { replayFailed, replayJson, replayJunit, replayText } from '../worker/console/replay-report.js';
import { fetchTransport } from '../worker/console/transport.js';
import { choiceValue, httpUrlValue, numberValue } from './option-values.js';

/** The parsed `replay` command. */
export interface ReplayCommand {
  kind: 'replay';
  path: string;
  target: string;
  keys: string[];
  format: 'text' | 'json' | 'junit';
  ignore: string[];
  conversations: string[];
  allowPartial: boolean;
  timeoutMs: number;
  /** Send the capture's credential headers even to a target of another origin than the recording. */
  sendCredentials: boolean;
  output?: string;
}

/** The replay part of the help text. */
export const REPLAY_USAGE = `
Replay re-runs the capture's 2026-07-28 conversations against a server: fresh ids, the
server's new requestState echoed, the recorded answers re-used by key (else by kind and
position), and each final answer diffed against the recording.

Replay options:
  --target URL         the MCP endpoint to replay against (required)
  --key SECRET         as for lint; used to lint the replay's own traffic
  --format FORMAT      text (default), json or junit
  --ignore PATH        a JSON path glob to leave out of the diff, e.g. result.content[*].text
                       or **.createdAt; repeatable, added to the defaults:
                       ${DEFAULT_IGNORE.join(' ')}
  --no-default-ignore  compare everything but the --ignore paths
  --conversation ID    replay only this conversation (ids as lint --format json prints them); repeatable
  --timeout SECONDS    give up on one request after this long (default 30)
  --send-credentials   send the capture's credential headers (Authorization, API keys) even
                       when --target is another origin than the recording; by default they
                       go only to the recording's own origin
  --allow-partial, --output FILE   as for lint

Replay exit status: 0 every final answer matched and the new traffic has no error-severity
finding, 1 otherwise, 2 the capture could not be used or the target could not be reached.
`;

type Usage = { kind: 'usage-error'; message: string } | { kind: 'help' };

/**
 * The message for arguments left over after the capture file. Hazard: a --key value with a
 * space that was not quoted arrives split, its tail as extra arguments, so they are named
 * only when no --key was given.
 */
export function unexpectedArguments(rest: readonly string[], keysGiven: boolean): string {
  if (!keysGiven) return `unexpected argument "${rest[0]}" (one capture file per run)`;
  return `${rest.length} unexpected argument${rest.length === 1 ? '' : 's'} (one capture file per run; not shown, since a --key value with spaces arrives split: quote it, --key "…")`;
}

/** Parses `replay …` argv. Never throws. */
export function parseReplayCommand(argv: readonly string[]): ReplayCommand | Usage {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        target: { type: 'string' },
        key: { type: 'string', multiple: true },
        format: { type: 'string' },
        ignore: { type: 'string', multiple: true },
        'no-default-ignore': { type: 'boolean' },
        conversation: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        'send-credentials': { type: 'boolean' },
        'allow-partial': { type: 'boolean' },
        output: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return { kind: 'usage-error', message: err instanceof Error ? err.message : String(err) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const [, path, ...rest] = positionals;
  if (path === undefined) return { kind: 'usage-error', message: 'replay needs a capture file: mrtr-inspector replay <capture.har|capture.jsonl> --target <url>' };
  if (rest.length > 0) return { kind: 'usage-error', message: unexpectedArguments(rest, values.key !== undefined) };
  if (values.target === undefined) return { kind: 'usage-error', message: 'replay needs --target <url>: the MCP endpoint to replay against' };
  const url = httpUrlValue('--target', values.target);
  if (typeof url === 'string') return { kind: 'usage-error', message: url };
  const format = choiceValue('--format for replay', values.format, ['text', 'json', 'junit'] as const, 'text');
  if (typeof format === 'object') return { kind: 'usage-error', message: format.error };
  const ignore = [...(values['no-default-ignore'] ? [] : DEFAULT_IGNORE), ...(values.ignore ?? [])];
  const bad = checkIgnoreList(ignore)[0];
  if (bad) return { kind: 'usage-error', message: `--ignore "${bad.glob}": ${bad.problem}` };
  const timeout = numberValue('--timeout', values.timeout, 30, { unit: 'seconds' });
  if (typeof timeout === 'string') return { kind: 'usage-error', message: timeout };
  return {
    kind: 'replay', path, target: values.target, keys: values.key ?? [], format, ignore, conversations: values.conversation ?? [],
    allowPartial: values['allow-partial'] ?? false, timeoutMs: timeout * 1000, sendCredentials: values['send-credentials'] ?? false, ...(values.output !== undefined ? { output: values.output } : {}),
  };
}

/** Runs a parsed replay command; resolves to the exit status. */
export async function runReplayCommand(cmd: ReplayCommand, version: string): Promise<number> {
  const keys = parseKeys(cmd.keys);
  if (!keys.ok) return (say(keys.message), 2);
  const imported = await readCapture(cmd.path, cmd.allowPartial);
  if (!imported.ok) return (say(imported.message), 2);

  const plan = planReplay(await analyze(imported.exchanges), cmd.conversations.length > 0 ? { conversations: cmd.conversations } : {});
  if (plan.items.length === 0) {
    const why = cmd.conversations.length > 0 ? `none of the conversations ${cmd.conversations.join(', ')} can be replayed` : 'it holds no 2026-07-28 request to replay';
    return (say(`${cmd.path}: nothing to replay: ${why}${plan.skipped[0] ? ` (e.g. ${plan.skipped[0].conversation}: ${plan.skipped[0].reason})` : ''}`), 2);
  }
  const run = await runReplay(plan, { target: cmd.target, send: fetchTransport({ timeoutMs: cmd.timeoutMs }), ignore: cmd.ignore, sendCredentials: cmd.sendCredentials });
  if (run.unreachable) return (say(`cannot reach the target ${run.unreachable.url}: ${run.unreachable.message}. Is the server running, and is the URL its MCP endpoint?`), 2);

  const findings = (await analyze(run.records, { keys: keys.keys })).findings;
  const out = cmd.format === 'json' ? replayJson(run, findings, { path: cmd.path, version }) : cmd.format === 'junit' ? replayJunit(run, findings, { path: cmd.path }) : replayText(run, findings, { path: cmd.path });
  try {
    if (cmd.output !== undefined) await writeFile(cmd.output, out);
    else await new Promise<void>((resolve, reject) => process.stdout.write(out, (err) => (err ? reject(err) : resolve())));
  } catch (err) {
    return (say(`cannot write ${cmd.output ?? 'standard output'}: ${(err as Error).message}`), 2);
  }
  return replayFailed(run, findings) ? 1 : 0;
}
