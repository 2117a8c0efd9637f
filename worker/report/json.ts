// The CLI's `--format json` document (shared/spec/lint-output.schema.json). Fields may be
// added; none may be renamed or removed.
import type { Analysis } from '../analysis.js';
import type { Conversation, Finding, JsonRpcId, Round, RoundLink, RoundOutcome, TokenFormat } from '../protocol.js';

export interface ReportInput {
  path: string;
  format: 'har' | 'jsonl';
  exchanges: number;
}

export interface JsonRound {
  exchange: number;
  requestId: JsonRpcId;
  outcome: RoundOutcome;
  link: RoundLink;
  inputRequests: Record<string, string> | null;
  inputResponses: string[] | null;
  requestState: { format: TokenFormat; verified: boolean | null; expiresAt: string | null; payload: unknown } | null;
  parent: number | null;
  linkReason?: string;
  candidates?: string[];
  legacy?: Round['legacy'];
  task?: Round['task'];
}

export interface JsonReport {
  tool: { name: 'mrtr-inspector'; version: string };
  input: ReportInput;
  conversations: Array<Omit<Conversation, 'rounds' | 'client'> & { rounds: JsonRound[] }>;
  findings: Finding[];
  summary: { errors: number; warnings: number; infos: number };
}

/** Counts findings by severity. */
export function summarize(findings: readonly Finding[]): JsonReport['summary'] {
  const s = { errors: 0, warnings: 0, infos: 0 };
  for (const f of findings) {
    if (f.severity === 'error') s.errors++;
    else if (f.severity === 'warning') s.warnings++;
    else s.infos++;
  }
  return s;
}

/** Builds the JSON report of an analysis. */
export function jsonReport(analysis: Analysis, input: ReportInput, version: string): JsonReport {
  return {
    tool: { name: 'mrtr-inspector', version },
    input,
    conversations: analysis.conversations.map((c) => jsonConversation(c, analysis)),
    findings: analysis.findings,
    summary: summarize(analysis.findings),
  };
}

/**
 * The same document as `jsonReport`, as text pieces, so a large report is written out one
 * conversation at a time instead of being built whole in memory.
 */
export function* jsonReportChunks(analysis: Analysis, input: ReportInput, version: string): Generator<string> {
  // One conversation per line: readable, grep-able, and cheap to produce for 100k of them.
  const indent = (v: unknown) => JSON.stringify(v);
  yield `{\n  "tool": ${JSON.stringify({ name: 'mrtr-inspector', version })},\n  "input": ${JSON.stringify(input)},\n  "conversations": [`;
  let first = true;
  for (const c of analysis.conversations) {
    yield (first ? '\n    ' : ',\n    ') + indent(jsonConversation(c, analysis));
    first = false;
  }
  yield first ? '],\n  "findings": [' : '\n  ],\n  "findings": [';
  first = true;
  for (const f of analysis.findings) {
    yield (first ? '\n    ' : ',\n    ') + JSON.stringify(f);
    first = false;
  }
  yield `${first ? '' : '\n  '}],\n  "summary": ${JSON.stringify(summarize(analysis.findings))}\n}\n`;
}

function jsonConversation(c: Conversation, analysis: Analysis): JsonReport['conversations'][number] {
  return {
    id: c.id,
    method: c.method,
    name: c.name,
    era: c.era,
    exchanges: c.exchanges,
    status: c.status,
    ...(c.replayOf !== undefined ? { replayOf: c.replayOf } : {}),
    ...(c.task !== undefined ? { task: c.task } : {}),
    rounds: c.rounds.map((r) => jsonRound(r, analysis)),
  };
}

function jsonRound(r: Round, analysis: Analysis): JsonRound {
  const reading = r.stateIssued !== null ? analysis.tokens.get(r.stateIssued) : undefined;
  return {
    exchange: r.exchange,
    requestId: r.requestId,
    outcome: r.outcome,
    link: r.link,
    inputRequests: r.inputRequests ? { ...r.inputRequests } : null,
    inputResponses: r.inputResponses,
    requestState: reading
      ? { format: reading.format, verified: reading.verified, expiresAt: reading.expiresAt, payload: reading.payload }
      : null,
    parent: r.parent,
    ...(r.linkReason !== undefined ? { linkReason: r.linkReason } : {}),
    ...(r.candidates !== undefined ? { candidates: r.candidates } : {}),
    ...(r.legacy !== undefined ? { legacy: r.legacy } : {}),
    ...(r.task !== undefined ? { task: r.task } : {}),
  };
}
