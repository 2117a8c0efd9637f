// Names, keys, paths and messages from a capture are printed to a terminal by lint's text
// report, replay's text report and the CLI's error messages. Each hostile string below is an
// attack a terminal would obey (retitle, clear, OSC 8 link, 8-bit CSI, forged line, bidi
// override); none may reach stdout or stderr raw, and colour codes are only ours.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { exportHar } from '../../../worker/capture/index.js';
import { replayText } from '../../../worker/console/replay-report.js';
import type { ReplayRun } from '../../../worker/console/replay.js';
import { textReport } from '../../../worker/report/text.js';
import { terminalSafe } from '../../../worker/report/terminal-safe.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

const TITLE = '\x1b]0;pwned\x07';
const CLEAR = '\x1b[2J\x1b[H';
const LINK = '\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\';
const CSI8 = '\x9b31m';
const FORGED = '\n  ✔ all good';
const BIDI = '\u202etxt.exe';
const HOSTILE = [TITLE, CLEAR, LINK, CSI8, FORGED, BIDI];
const NAME = HOSTILE.join('|');

// Any control character a terminal acts on, other than the newlines between our own lines.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// What is left when our own SGR colour codes are taken out.
const withoutOurColours = (s: string) => s.replace(/\x1b\[\d+m/g, '');

function hostileCapture() {
  const b = capture();
  const first = b.call('tools/call', { name: NAME, arguments: {} }).inputRequired({ [`key${TITLE}${FORGED}`]: ask.form(CLEAR, { a: { type: 'string' } }) }, `T${LINK}`);
  b.retry(first, { [`key${TITLE}${FORGED}`]: reply.accept({ a: 'b' }) }).state('T1-changed');
  return b.build();
}

describe('terminal escapes in text output', () => {
  it('terminalSafe shows every control as a visible escape and leaves other text alone', () => {
    expect(terminalSafe(`a${TITLE}b`)).toBe('a\\u001b]0;pwned\\u0007b');
    expect(terminalSafe(CSI8)).toBe('\\u009b31m');
    expect(terminalSafe(BIDI)).toBe('\\u202etxt.exe');
    expect(terminalSafe('tools/call ✖ <é> 日本')).toBe('tools/call ✖ <é> 日本');
    for (const h of HOSTILE) expect(terminalSafe(h)).not.toMatch(RAW_CONTROL);
  });

  it('lint text: names and keys are escaped, with and without colour', async () => {
    const a = await analyze(hostileCapture());
    for (const color of [false, true]) {
      const out = textReport(a, { path: `cap${TITLE}.har`, format: 'har', exchanges: 2 }, color);
      expect(withoutOurColours(out), `color ${color}`).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      expect(out).toContain('\\u001b]0;pwned\\u0007');
      expect(out).toContain('\\u009b31m');
      // The forged line is not a line of its own.
      expect(out.split('\n').some((l) => l.startsWith('  ✔ all good'))).toBe(false);
      if (color) expect(out).toMatch(/\x1b\[1m/);
    }
  });

  it('replay text: every field a server or capture fills is escaped', () => {
    const run: ReplayRun = {
      target: `http://t/${TITLE}`, ignore: [], records: [], credentialsWithheld: [`x-${CLEAR}`],
      outcomes: [{
        conversation: `c${LINK}`, method: 'tools/call', name: NAME, status: 'different', rounds: 2, recordedRounds: 2,
        changes: [{ path: `/a${CSI8}`, kind: 'changed', before: `"${FORGED}"`, after: `"${BIDI}"` }], omitted: 0,
        questions: [{ key: `q${TITLE}`, kind: 'form' }], renamed: { [`n${CLEAR}`]: `o${LINK}` }, credentialsWithheld: [`y${CSI8}`], error: `e${FORGED}`,
      }],
      skipped: [{ conversation: `s${TITLE}`, method: `m${CLEAR}`, reason: `r${LINK}` }],
      summary: { same: 0, different: 1, stopped: 0, failed: 0, skipped: 1 },
    };
    const findings = [{ rule: `R${TITLE}`, severity: 'error' as const, exchange: 0, conversation: null, message: `m${CSI8}${FORGED}`, clause: `c${BIDI}` }];
    const out = replayText(run, findings as never, { path: `p${LINK}` });
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out.split('\n').some((l) => l.startsWith('  ✔ all good'))).toBe(false);
    expect(out).toContain('\\u001b]0;pwned\\u0007');
  });
});

describe('terminal escapes from the built CLI', () => {
  // dist/ is built once by vitest's global setup (test/support/build-cli-once.ts); a
  // rebuild here would rewrite it under another file's running CLI.
  const cli = (...args: string[]) => spawnSync(process.execPath, ['cli/bin.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '' } });

  it('lint --format text prints no raw control from a hostile capture', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mrtr-esc-')), 'hostile.har');
    writeFileSync(path, exportHar(hostileCapture(), { sanitize: false }));
    const r = cli('lint', path, '--format', 'text');
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('\\u001b]0;pwned\\u0007');
    expect(r.stdout).not.toMatch(RAW_CONTROL);
  });

  it('error messages that echo a path, a command or an option escape it', () => {
    for (const args of [['lint', `/nonexistent/${TITLE}${CLEAR}.har`], [`${TITLE}${CLEAR}`], ['lint', 'x.har', `--${LINK}`], ['lint', 'x.har', '--format', CSI8]]) {
      const r = cli(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, JSON.stringify(args)).not.toMatch(RAW_CONTROL);
      expect(r.stderr).toMatch(/\\u00(1b|9b)/);
    }
  });
});
