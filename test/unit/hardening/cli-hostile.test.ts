// `mrtr-inspector lint` on damaged and hostile captures: exit 2 with what and where when
// the input cannot be used, `--allow-partial` imports the readable part and lists what it
// skipped on stderr, and hostile-but-readable input still gives a complete report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportHar } from '../../../worker/capture/index.js';
import { capture } from '../../support/capture-builder.js';
import { buildCliIfStale } from '../../support/cli-process.js';
import { deepArray, deepObject } from './hostile.js';

const FIX = 'test/fixtures/hostile';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['cli/bin.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '' }, maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(buildCliIfStale, 120_000);

const tmp = () => mkdtempSync(join(tmpdir(), 'mrtr-hostile-'));

describe('mrtr-inspector lint on damaged captures', () => {
  it('exits 2 on a HAR cut off mid-entry, saying which entry, where and what to do', () => {
    const r = cli('lint', `${FIX}/truncated.har`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^mrtr-inspector: test\/fixtures\/hostile\/truncated\.har: 1 of 3 entries could not be read; the first: log\.entries\[2\]: the file is cut off or broken inside this entry \(line \d+, column \d+: .*\).*The other 2 can be imported without it\. Pass --allow-partial to import them\. \(at log\.entries\[2\]\)\n$/);
  });

  it('imports the complete entries of a cut HAR with --allow-partial and lists the skipped entry on stderr', () => {
    const r = cli('lint', `${FIX}/truncated.har`, '--allow-partial', '--format', 'json');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^mrtr-inspector: skipped log\.entries\[2\]: the file is cut off .*\n$/);
    const doc = JSON.parse(r.stdout);
    expect(doc.input).toMatchObject({ format: 'har', exchanges: 3 });
    expect(doc.conversations.map((c: { exchanges: number[] }) => c.exchanges)).toEqual([[0, 1]]);
  });

  it('exits 2 on a JSONL capture cut mid-line, and reads the whole lines with --allow-partial', () => {
    const no = cli('lint', `${FIX}/truncated.jsonl`);
    expect(no.code).toBe(2);
    expect(no.stderr).toMatch(/1 of 3 lines could not be read; the first: line 4: the last line is cut off or not valid JSON.*\(at line 4\)\n$/);
    const yes = cli('lint', `${FIX}/truncated.jsonl`, '--allow-partial');
    expect(yes.code).toBe(0);
    expect(yes.stderr).toMatch(/^mrtr-inspector: skipped line 4: the last line is cut off or not valid JSON/);
    expect(yes.stdout).toContain('tools/call book');
  });

  it('exits 2 on fields of the wrong type naming each field, and skips exactly those entries with --allow-partial', () => {
    const no = cli('lint', `${FIX}/wrong-types.har`);
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('2 of 3 entries could not be read; the first: log.entries[1].response.status: response.status must be a number');
    const yes = cli('lint', `${FIX}/wrong-types.har`, '--allow-partial', '--format', 'json');
    expect(yes.code).toBe(0);
    expect(yes.stderr.trimEnd().split('\n')).toEqual([
      'mrtr-inspector: skipped log.entries[1].response.status: response.status must be a number',
      'mrtr-inspector: skipped log.entries[2].request.headers: headers must be a list of {name, value}',
    ]);
    expect(JSON.parse(yes.stdout).conversations.map((c: { exchanges: number[] }) => c.exchanges)).toEqual([[0]]);
  });

  it('exits 2 on a file that is not JSON, with line and column', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'page.har'), '<!doctype html>\n<html><script>alert(1)</script></html>\n');
    const r = cli('lint', join(dir, 'page.har'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON or JSON Lines \(line 1, column 1: .*\)/);
  });
});

describe('mrtr-inspector lint on hostile but readable captures', () => {
  it('prints a complete JSON report for bodies, clientInfo and tokens nested 10k deep', () => {
    const b = capture();
    const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":${deepObject(10_000)}}}`;
    b.call('tools/call', { name: 'd' }).rawBody(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"d","arguments":${deepArray(10_000)},"_meta":${meta}}}`);
    b.call('tools/call', { name: 'd' }).rawBody(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"d","requestState":${JSON.stringify(deepArray(10_000))},"inputResponses":{"k":${deepObject(10_000)}},"_meta":${meta}}}`);
    const records = b.build();
    records[0].response!.body = `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":${JSON.stringify(deepArray(10_000))},"inputRequests":{"k":{"method":"elicitation/create","params":${deepObject(10_000)}}}}}`;
    const dir = tmp();
    const path = join(dir, 'deep.har');
    writeFileSync(path, exportHar(records, { sanitize: false }));
    for (const format of ['json', 'text', 'sarif', 'junit']) {
      const r = cli('lint', path, '--format', format);
      expect(r.stderr, format).toBe('');
      expect([0, 1], format).toContain(r.code);
      if (format === 'json') {
        const doc = JSON.parse(r.stdout);
        expect(doc.conversations).toHaveLength(1);
        expect(doc.conversations[0].rounds.map((x: { link: string | null }) => x.link)).toEqual([null, 'state']);
        expect(JSON.stringify(doc.conversations[0].rounds[0].requestState.payload)).toContain('[elided: nested deeper than 64 levels]');
      }
    }
  });

  it('keeps tokens holding HTML and script verbatim in JSON and escaped in JUnit XML', () => {
    const token = '</script><script>alert(1)</script>';
    const b = capture();
    const first = b.call('tools/call', { name: '<img src=x onerror=alert(1)>' }).inputRequired({ k: { method: 'roots/list', params: {} } }, token);
    b.retry(first, { k: { roots: [] } }).complete();
    const path = join(tmp(), 'html.har');
    writeFileSync(path, exportHar(b.build(), { sanitize: false }));
    const doc = JSON.parse(cli('lint', path, '--format', 'json').stdout);
    expect(doc.conversations[0].name).toBe('<img src=x onerror=alert(1)>');
    expect(doc.conversations[0].rounds[1].link).toBe('state');
    const xml = cli('lint', path, '--format', 'junit').stdout;
    expect(xml).toContain('name="tools/call &lt;img src=x onerror=alert(1)&gt; (c0)"');
    expect(xml).not.toContain('<img');
  });
});
