// `mrtr-inspector`: the Node host of the analysis core. Reads a capture, analyses it with
// the same modules the web worker uses, prints a report, and exits 0, 1 or 2.
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { analyze } from '../worker/analysis.js';
import { importCapture } from '../worker/capture/index.js';
import { parseKey, type TokenKey } from '../worker/tokens/index.js';
import { ALL_RULES } from '../worker/lint/rules/index.js';
import { jsonReport } from '../worker/report/json.js';
import { sarifReport } from '../worker/report/sarif.js';
import { junitReport } from '../worker/report/junit.js';
import { textReport } from '../worker/report/text.js';
import { parseCommand, USAGE } from './args.js';

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
    case 'usage-error': process.stderr.write(`mrtr-inspector: ${cmd.message}\n\n${USAGE}`); return 2;
  }

  const keys: TokenKey[] = [];
  for (const [i, k] of cmd.keys.entries()) {
    const parsed = parseKey(k);
    if (!parsed.ok) { process.stderr.write(`mrtr-inspector: --key number ${i + 1}: ${parsed.error}\n`); return 2; }
    keys.push(parsed.key);
  }

  let text: string;
  try {
    text = await readFile(cmd.path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    process.stderr.write(`mrtr-inspector: cannot read ${cmd.path}: ${why}\n`);
    return 2;
  }

  const imported = importCapture(text, { allowPartial: cmd.allowPartial });
  if (!imported.ok) {
    process.stderr.write(`mrtr-inspector: ${cmd.path}: ${imported.error.message}${imported.error.where ? ` (at ${imported.error.where})` : ''}\n`);
    return 2;
  }
  for (const s of imported.skipped) process.stderr.write(`mrtr-inspector: skipped ${s.where}: ${s.message}\n`);

  const analysis = await analyze(imported.exchanges, { keys, maxRounds: cmd.maxRounds, ttlBoundSeconds: cmd.ttlBound });
  const input = { path: cmd.path, format: imported.format, exchanges: countEntries(imported.exchanges, imported.skipped.length) };
  let out: string;
  switch (cmd.format) {
    case 'json': out = JSON.stringify(jsonReport(analysis, input, version()), null, 2) + '\n'; break;
    case 'sarif': out = JSON.stringify(sarifReport(analysis.findings, ALL_RULES, cmd.path, version()), null, 2) + '\n'; break;
    case 'junit': out = junitReport(analysis.conversations, analysis.findings, cmd.path); break;
    case 'text': out = textReport(analysis, input, cmd.output === undefined && (cmd.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR))); break;
  }
  if (cmd.output !== undefined) await writeFile(cmd.output, out);
  else await writeOut(out);
  return analysis.findings.some((f) => f.severity === 'error') ? 1 : 0;
}

/** Entries in the input file: the highest position seen, counting skipped ones too. */
function countEntries(exchanges: readonly { seq: number }[], skipped: number): number {
  let max = -1;
  for (const e of exchanges) if (e.seq > max) max = e.seq;
  return Math.max(max + 1, exchanges.length + skipped);
}

/** Writes to stdout and waits for it to drain, so piped output is never cut at exit. */
function writeOut(s: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(s, (err) => (err ? reject(err) : resolve())));
}
