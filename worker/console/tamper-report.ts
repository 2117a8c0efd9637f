// "Run all tamper tests": every planned test against the server, one after another (the
// after-expiry one is reported as scheduled unless its time has come), and the small report
// the page exports as JSON or Markdown.
import type { ExchangeRecord, JsonRpcId } from '../protocol.js';
import { own } from '../decode/meta.js';
import { planTamperTests, runTamperPlan, type TamperResult, type TamperSubject } from './tamper.js';
import type { Transport } from './types.js';
import { newRunId } from './exchange.js';

/** The exportable report of one "run all". */
export interface TamperReport {
  kind: 'mrtr-inspector/tamper-report';
  version: 1;
  target: string;
  method: string;
  name: string | null;
  ranAt: string;
  results: TamperResult[];
  /** `unchangedAnswer`: of the accepted, those answered exactly as the genuine token was. */
  summary: { rejected: number; accepted: number; unchangedAnswer: number; inconclusive: number; scheduled: number; notRun: number };
}

/** Runs every tamper test on the subject; the report plus the traffic as console records. */
export async function runAllTamperTests(
  subject: TamperSubject,
  send: Transport,
  opts: { ids?: () => JsonRpcId; now?: () => number; session?: string; run?: string } = {},
): Promise<{ report: TamperReport; records: ExchangeRecord[] }> {
  const now = opts.now ?? Date.now;
  const { plans, notRun } = planTamperTests(subject, { ...(opts.ids ? { ids: opts.ids } : {}), now: now() });
  const results: TamperResult[] = [];
  const records: ExchangeRecord[] = [];
  let seq = 0;
  // One run id for all the tests: their exchanges are one group wherever they are shown.
  const run = opts.run ?? newRunId();
  for (const plan of plans) {
    const r = await runTamperPlan(plan, send, { now, seq: () => seq++, run, ...(opts.session !== undefined ? { session: opts.session } : {}), ...(subject.recordId !== undefined ? { derivedFrom: subject.recordId } : {}) });
    results.push(r.result);
    records.push(...r.records);
  }
  results.push(...notRun);
  const count = (f: (r: TamperResult) => boolean) => results.filter(f).length;
  const name = own(subject.request.body.params, subject.request.body.method === 'resources/read' ? 'uri' : 'name');
  return {
    report: {
      kind: 'mrtr-inspector/tamper-report', version: 1, target: subject.url, method: subject.request.body.method,
      name: typeof name === 'string' ? name : null, ranAt: new Date(now()).toISOString(), results,
      summary: {
        rejected: count((r) => r.verdict === 'rejected'), accepted: count((r) => r.verdict === 'accepted'), unchangedAnswer: count((r) => r.unchanged === true),
        inconclusive: count((r) => r.verdict === 'inconclusive'), scheduled: count((r) => r.status === 'scheduled'), notRun: count((r) => r.status === 'not-run'),
      },
    },
    records,
  };
}

/** The report as JSON text. */
export function tamperReportJson(report: TamperReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}

const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'));

/** The report as a Markdown table (cells escaped: server text never becomes markup). */
export function tamperReportMarkdown(report: TamperReport): string {
  const s = report.summary;
  const lines = [
    `# Tamper tests: ${cell(report.method)}${report.name !== null ? ` \`${cell(report.name).replace(/`/g, "'")}\`` : ''}`,
    '',
    `Target: ${cell(report.target)}  `,
    `Run at: ${report.ranAt}  `,
    `Rejected ${s.rejected}, accepted ${s.accepted}${s.unchangedAnswer > 0 ? ` (${s.unchangedAnswer} with the genuine token's answer)` : ''}, inconclusive ${s.inconclusive}, scheduled ${s.scheduled}, not run ${s.notRun}.`,
    '',
    '| Test | Verdict | Rule | Detail |',
    '|---|---|---|---|',
    ...report.results.map((r) => `| ${cell(r.label)} | ${r.unchanged ? 'accepted, same answer' : r.verdict ?? r.status} | ${r.rule ?? ''} | ${cell(r.detail)} |`),
    '',
  ];
  return lines.join('\n');
}
