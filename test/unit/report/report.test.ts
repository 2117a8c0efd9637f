// The report writers: the streamed JSON equals the whole document, and the other formats
// carry every finding.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { jsonReport, jsonReportChunks } from '../../../worker/report/json.js';
import { junitReport, xmlEscape } from '../../../worker/report/junit.js';
import { sarifReport } from '../../../worker/report/sarif.js';
import { textReport } from '../../../worker/report/text.js';
import { groupFindings } from '../../../worker/report/group-findings.js';
import { ALL_RULES } from '../../../worker/lint/rules/index.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

async function manual() {
  const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-manual.har', 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  return analyze(imported.exchanges);
}

const input = { path: 'x.har', format: 'har' as const, exchanges: 11 };

describe('reports', () => {
  it('streams JSON that parses to exactly the whole-document report', async () => {
    const a = await manual();
    expect(JSON.parse([...jsonReportChunks(a, input, '9.9.9')].join(''))).toEqual(JSON.parse(JSON.stringify(jsonReport(a, input, '9.9.9'))));
  });

  it('streams valid JSON for a capture with no conversations and no findings', async () => {
    const a = await analyze([]);
    const doc = JSON.parse([...jsonReportChunks(a, { ...input, exchanges: 0 }, '1')].join(''));
    expect(doc).toEqual({ tool: { name: 'mrtr-inspector', version: '1' }, input: { ...input, exchanges: 0 }, conversations: [], findings: [], summary: { errors: 0, warnings: 0, infos: 0 } });
  });

  it('puts every finding in SARIF, JUnit and text output', async () => {
    const cap = capture();
    const first = cap.call('tools/call', { name: 'x', arguments: {} }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, 'T1');
    cap.retry(first, { k: reply.accept({ a: 'b' }) }).state('T1-changed');
    const a = await analyze(cap.build());
    expect(a.findings.length).toBeGreaterThan(0);
    const sarif = sarifReport(a.findings, ALL_RULES, 'x.har', '1') as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0].results.map((r) => r.ruleId)).toEqual(a.findings.map((f) => f.rule));
    const junit = junitReport(a.conversations, a.findings, 'x.har');
    const text = textReport(a, input, false);
    for (const f of a.findings) {
      expect(junit).toContain(f.rule);
      expect(text).toContain(f.rule);
    }
  });

  it('escapes markup and drops characters XML cannot carry', () => {
    expect(xmlEscape('<a href="x">&\u0000\u0007\'</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
  });
});

describe('text report', () => {
  it('shows a replay of a completed chain, naming the conversation it replays', async () => {
    const cap = capture();
    const first = cap.call('tools/call', { name: 'x', arguments: {} }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, 'T1');
    cap.retry(first, { k: reply.accept({ a: 'b' }) });
    cap.retry(first, { k: reply.accept({ a: 'b' }) });
    const a = await analyze(cap.build());
    const text = textReport(a, { ...input, exchanges: 3 }, false);
    expect(text).toMatch(/^tools\/call x {2}c2 {2}complete {2}1 round\(s\) {2}2026-07-28 {2}exchanges 2 {2}replay of c0$/m);
  });

  it('shows an ambiguous round with its candidates, even in a single-round conversation', async () => {
    const cap = capture();
    const conf = { ok: ask.form('Proceed?', { ok: { type: 'boolean' } }, ['ok']) };
    const a1 = cap.call('tools/call', { name: 'x', arguments: {} }).inputRequired(conf);
    const b1 = cap.call('tools/call', { name: 'x', arguments: {} }).inputRequired(conf);
    cap.retry(a1, { ok: reply.accept({ ok: true }) });
    cap.retry(b1, { ok: reply.accept({ ok: true }) });
    const a = await analyze(cap.build());
    const text = textReport(a, { ...input, exchanges: 4 }, false);
    const lines = text.split('\n').filter((l) => l.includes('ambiguous:'));
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toContain('candidates c0 (tools/call x, exchanges 0); c1 (tools/call x, exchanges 1)');
  });

  it('marks a retry that branches from an earlier round than the one before it', async () => {
    const cap = capture();
    const first = cap.call('tools/call', { name: 'x', arguments: {} }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, 'T1');
    cap.retry(first, { k: reply.accept({ a: 'b' }) }).state('T1-edited').error(-32602, 'bad state');
    cap.retry(first, { k: reply.accept({ a: 'b' }) });
    const a = await analyze(cap.build());
    const text = textReport(a, { ...input, exchanges: 3 }, false);
    expect(text).toMatch(/round 3 {2}#2 {2}id \d+ {2}linked by state {2}branch of round 1 /);
    expect(text).not.toMatch(/round 2 .*branch of/);
  });
});

describe('grouped findings in the text report', () => {
  /** `n` calls to one server, each issuing one readable unprotected token (four state/* warnings each). */
  async function unprotectedServer(n: number, url?: string) {
    const cap = capture(url !== undefined ? { url } : {});
    for (let i = 0; i < n; i++) {
      const token = Buffer.from(JSON.stringify({ step: i })).toString('base64url');
      const first = cap.call('tools/call', { name: 'x', arguments: { i } }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, token);
      cap.retry(first, { k: reply.accept({ a: 'b' }) });
    }
    return analyze(cap.build());
  }

  it('prints one line per server and rule with the count, and every occurrence under it', async () => {
    const a = await unprotectedServer(40);
    const unprotected = a.findings.filter((f) => f.rule === 'state/unprotected');
    expect(unprotected).toHaveLength(40);
    const text = textReport(a, { ...input, exchanges: 80 }, false);
    const lines = text.split('\n');
    const head = lines.filter((l) => l.includes('state/unprotected'));
    expect(head).toHaveLength(1);
    expect(head[0]).toMatch(/^ {2}▲ warning {2}state\/unprotected ×40 on http:\/\/127\.0\.0\.1:\d+\/mcp {2}\[mrtr:232-233\]$/);
    const occurrences = text.slice(text.indexOf(head[0]));
    for (const f of unprotected) expect(occurrences).toContain(`#${f.exchange} (${f.conversation})`);
    // Each conversation has nothing left to say on its own: no per-conversation finding lines.
    expect(lines.filter((l) => /^ {2}▲ warning {2}state\//.test(l) && !l.includes('×'))).toEqual([]);
  });

  it('keeps a finding that occurs once on its conversation, and JSON and SARIF keep every occurrence', async () => {
    const a = await unprotectedServer(1);
    const text = textReport(a, { ...input, exchanges: 2 }, false);
    expect(text).not.toContain('×');
    expect(text).toMatch(/^ {2}▲ warning {2}state\/unprotected {2}#0 /m);
    const many = await unprotectedServer(3);
    expect(jsonReport(many, input, '1').findings.filter((f) => f.rule === 'state/unprotected')).toHaveLength(3);
    const sarif = sarifReport(many.findings, ALL_RULES, 'x.har', '1') as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0].results.filter((r) => r.ruleId === 'state/unprotected')).toHaveLength(3);
  });
});

describe('groupFindings', () => {
  const f = (exchange: number, rule: string, severity: 'error' | 'warning' = 'warning') => ({ rule, severity, exchange, conversation: `c${exchange}`, message: 'm', clause: 'x' });
  it('groups per server, rule and severity, keeps singles in order, and orders groups by first finding', () => {
    const findings = [f(0, 'a'), f(1, 'b'), f(2, 'a'), f(3, 'a', 'error'), f(4, 'b'), f(5, 'a')];
    const server = (seq: number) => (seq === 5 ? 'http://other/mcp' : 'http://one/mcp');
    const { groups, rest } = groupFindings(findings, server);
    expect(groups.map((g) => [g.rule, g.server, g.findings.map((x) => x.exchange)])).toEqual([
      ['a', 'http://one/mcp', [0, 2]], ['b', 'http://one/mcp', [1, 4]],
    ]);
    expect(rest.map((x) => x.exchange)).toEqual([3, 5]);
  });
});
