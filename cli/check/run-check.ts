// `mrtr-inspector check`: runs the check engine (worker/check) against a URL or a stdio
// server, lints the traffic with the same analysis as `lint`, prints the report, saves the
// session when asked, and picks the exit status. The work is the engine's; this file only
// wires it to Node.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { analyze } from '../../worker/analysis.js';
import { exportJsonl } from '../../worker/capture/jsonl.js';
import { runCheck } from '../../worker/check/run.js';
import { checkFailed, checkText } from '../../worker/check/report-text.js';
import { checkJson, checkJunit, checkSarif } from '../../worker/check/report-formats.js';
import { fetchTransport } from '../../worker/console/transport.js';
import { ALL_RULES } from '../../worker/lint/rules/index.js';
import type { HmacSha256Check } from '../../worker/tokens/index.js';
import { parseKeys, say } from '../capture-input.js';
import type { CheckCommand } from './check-args.js';
import { stdioTarget } from './stdio-target.js';

const nodeHmacSha256: HmacSha256Check = (key, data, mac) =>
  mac.length === 32 && timingSafeEqual(createHmac('sha256', key).update(data).digest(), mac);

/** Runs a parsed check command; resolves to the exit status. */
export async function runCheckCommand(cmd: CheckCommand, version: string): Promise<number> {
  const keys = parseKeys(cmd.keys);
  if (!keys.ok) return (say(keys.message), 2);
  const target = cmd.stdio ? await stdioTarget(cmd.stdio, cmd.timeoutMs) : { url: cmd.url!, send: fetchTransport({ timeoutMs: cmd.timeoutMs }), close: async () => {} };
  if ('problem' in target) return (say(target.problem), 2);
  const progress = process.stderr.isTTY ? ({ line }: { line: string }) => process.stderr.write(`\r\x1b[2Kmrtr-inspector check: ${line.slice(0, 100)}`) : () => {};
  let run;
  try {
    run = await runCheck({
      url: target.url, tools: cmd.tools, skip: cmd.skip, allowDestructive: cmd.allowDestructive, args: cmd.args, roots: cmd.roots,
      maxWaitMs: cmd.maxWaitMs, maxCalls: cmd.maxCalls, maxTimeMs: cmd.maxTimeMs, concurrency: cmd.concurrency,
    }, target.send, progress);
  } finally {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');
    await target.close();
  }
  if (run.unchecked === 'unreachable') return (say(`cannot reach ${cmd.url ?? 'the stdio server'}: ${run.notes.slice(0, 1).join('')}. Is the server running, and is the URL its MCP endpoint?`), 2);

  // The probes break client rules on purpose (a changed token, a dropped one…): findings on
  // their exchanges say nothing about the server, so only the rest of the traffic is reported.
  // Over stdio the records carry the stdio marker, so HTTP-only rules stay quiet (docs/stdio.md).
  if (cmd.stdio) for (const r of run.records) r.stdio = { name: target.url.slice('stdio://'.length) };
  const analysis = await analyze(run.records, { keys: keys.keys, hmac: nodeHmacSha256 });
  const probeSeqs = new Set(run.records.filter((r) => r.origin?.kind === 'tamper').map((r) => r.seq));
  const findings = analysis.findings.filter((f) => !probeSeqs.has(f.exchange));
  const out = cmd.format === 'json' ? checkJson(run, findings, version)
    : cmd.format === 'junit' ? checkJunit(run, findings)
    : cmd.format === 'sarif' ? checkSarif(run, findings, ALL_RULES, version)
    : checkText(run, findings, cmd.output === undefined && (cmd.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR)));
  try {
    if (cmd.save !== undefined) await writeFile(cmd.save, exportJsonl(run.records));
  } catch (err) {
    say(`cannot write the session to ${cmd.save}: ${(err as Error).message}`);
    return 2;
  }
  try {
    if (cmd.output !== undefined) await writeFile(cmd.output, out);
    else await new Promise<void>((resolve, reject) => process.stdout.write(out, (err) => (err ? reject(err) : resolve())));
  } catch (err) {
    return (say(`cannot write ${cmd.output ?? 'standard output'}: ${(err as Error).message}`), 2);
  }
  if (run.unchecked === 'legacy') return 2;
  return checkFailed(run, findings) ? 1 : 0;
}
