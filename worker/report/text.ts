// Human-readable lint output, grouped by conversation. Colour is the caller's choice (a
// TTY); every severity also has a word and a symbol, so colour is never the only signal.
// Hazard: names, keys and messages come from the capture; each passes through `safe` before
// it is joined or painted, so only our own colour codes reach the terminal.
import type { Analysis } from '../analysis.js';
import type { Conversation, Finding, Round, Severity } from '../protocol.js';
import type { ReportInput } from './json.js';
import { summarize } from './json.js';
import { terminalSafe as safe } from './terminal-safe.js';
import { groupFindings, type FindingGroup } from './group-findings.js';
import { serverOf } from '../tokens/server-of.js';
import { callRounds, experimentFlags, hasExperiments } from '../thread/experiments.js';

const SYMBOL: Record<Severity, string> = { error: '✖', warning: '▲', info: 'ℹ' };
const COLOR: Record<Severity, string> = { error: '\x1b[31m', warning: '\x1b[33m', info: '\x1b[36m' };
const DIM = '\x1b[2m';
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';

/** Renders the analysis as text. Conversations without findings and with one round are
 *  counted, not listed, and findings repeated on one server (same rule, same severity) are
 *  one group each with its occurrences, so large captures stay readable. */
export function textReport(analysis: Analysis, input: ReportInput, color: boolean): string {
  let s = '';
  for (const piece of textReportChunks(analysis, input, color)) s += piece;
  return s;
}

/** The same text as `textReport`, in pieces (a conversation's lines at a time), for a
 *  writer that sends each on as it is made instead of holding the whole report. */
export function* textReportChunks(analysis: Analysis, input: ReportInput, color: boolean): Generator<string> {
  const paint = (code: string, s: string) => (color ? code + safe(s) + RESET : safe(s));
  const urls = new Map<number, string>();
  for (const r of analysis.records) urls.set(r.seq, r.request.url);
  const servers = new Map<string, string>();
  const server = (seq: number) => {
    const url = urls.get(seq) ?? '';
    let s = servers.get(url);
    if (s === undefined) servers.set(url, (s = url === '' ? '(no server)' : serverOf(url)));
    return s;
  };
  const { groups, rest } = groupFindings(analysis.findings, server);
  const byConv = new Map<string, Finding[]>();
  const loose: Finding[] = [];
  for (const f of rest) {
    if (f.conversation === null) loose.push(f);
    else (byConv.get(f.conversation) ?? byConv.set(f.conversation, []).get(f.conversation)!).push(f);
  }
  // Every line ends with its newline, so each piece stands alone (the first line has no
  // blank line before it; every later block starts with one).
  yield paint(BOLD, `mrtr-inspector lint ${input.path}`) + paint(DIM, ` (${input.format}, ${input.exchanges} exchanges, ${analysis.conversations.length} conversations)`) + '\n';
  let quiet = 0;
  for (const c of analysis.conversations) {
    const fs = byConv.get(c.id) ?? [];
    // A replay or an ambiguous round is worth a line even with nothing else to say.
    if (fs.length === 0 && c.rounds.length < 2 && !c.rounds[0]?.legacy && c.replayOf === undefined && c.rounds[0]?.link !== 'ambiguous' && c.task === undefined) { quiet++; continue; }
    let block = '\n' + headline(c, paint) + '\n';
    const tried = hasExperiments(c.rounds) ? experimentFlags(c.rounds) : null;
    c.rounds.forEach((r, i) => { block += roundLine(r, i, analysis, paint, tried?.[i] === true) + '\n'; });
    for (const f of fs) block += findingLine(f, paint) + '\n';
    yield block;
  }
  if (loose.length > 0) {
    let block = '\n' + paint(BOLD, 'Outside any conversation') + '\n';
    for (const f of loose) block += findingLine(f, paint) + '\n';
    yield block;
  }
  if (groups.length > 0) {
    yield '\n' + paint(BOLD, 'Repeated findings') + paint(DIM, ' (one line per server and rule; --format json lists each occurrence)') + '\n';
    for (const g of groups) yield groupLines(g, paint).join('\n') + '\n';
  }
  if (quiet > 0) yield '\n' + paint(DIM, `${quiet} single-round conversation(s) without other findings not shown (use --format json for all).`) + '\n';
  const s = summarize(analysis.findings);
  yield `\n${s.errors} error(s), ${s.warnings} warning(s), ${s.infos} info(s)\n`;
}

type Paint = (code: string, s: string) => string;

function headline(c: Conversation, paint: Paint): string {
  const name = c.name ? ` ${c.name}` : '';
  const replay = c.replayOf !== undefined ? `  replay of ${c.replayOf}` : '';
  const task = c.task !== undefined ? `  task ${JSON.stringify(c.task.taskId)} ${c.task.status ?? 'no status'}${c.task.created === null ? ' (created before the capture)' : ''}` : '';
  return `${paint(BOLD, c.method + name)}  ${safe(`${c.id}  ${c.status}  ${roundsText(c)}  ${c.era}  exchanges ${c.exchanges.join(',')}${replay}${task}`)}`;
}

/** The call's own rounds, as the page's list counts them: a Console fork, edit, re-send or
 *  tamper test that joined the call is its experiment, counted apart (thread/experiments.ts). */
function roundsText(c: Conversation): string {
  const call = hasExperiments(c.rounds) ? callRounds(c.rounds) : null;
  if (call === null) return `${c.rounds.length} round(s)`;
  if (call.experiment) return `${c.rounds.length} round(s), all Console experiments`;
  return `${call.own.length} round(s) + ${c.rounds.length - call.own.length} Console experiment round(s)`;
}

// Built on the first ambiguous round only: most captures have none.
const conversationIndex = new WeakMap<Analysis, Map<string, Conversation>>();

/** "c3 (tools/call book, exchanges 3,5)" for each candidate id of an ambiguous round. */
function candidatesText(ids: readonly string[], analysis: Analysis): string {
  let byId = conversationIndex.get(analysis);
  if (byId === undefined) conversationIndex.set(analysis, (byId = new Map(analysis.conversations.map((c) => [c.id, c]))));
  return ids.map((id) => {
    const c = byId.get(id);
    return c ? `${id} (${c.method}${c.name ? ` ${c.name}` : ''}, exchanges ${c.exchanges.join(',')})` : id;
  }).join('; ');
}

function roundLine(r: Round, i: number, analysis: Analysis, paint: Paint, experiment: boolean): string {
  const parts = [`  round ${i + 1}`, `#${r.exchange}`, `id ${JSON.stringify(r.requestId)}`];
  // A Console experiment's round is the developer's test, not one of the call's rounds.
  if (experiment) parts.push(`Console ${r.origin ?? 'experiment'} (not one of the call's rounds)`);
  if (r.link) parts.push(`linked by ${r.link}`);
  if (r.parent !== null && r.parent !== i - 1) parts.push(`branch of round ${r.parent + 1}`);
  if (r.inputResponses) parts.push(`answers ${r.inputResponses.join(',') || '(none)'}`);
  const t = r.task;
  if (t !== undefined && t.step !== 'create') {
    // A task step: what it is and what the task said, not the JSON-RPC outcome (always
    // "complete" for an acknowledged poll), unless it failed.
    const polls = 1 + (t.polls?.length ?? 0);
    parts.push(`tasks/${t.step}${t.status !== null ? ` → ${t.status}` : ''}${polls > 1 ? ` ×${polls} polls` : ''}${r.outcome === 'error' || r.outcome === 'no-response' ? ` → ${r.outcome}` : ''}`);
    if (t.requests) parts.push(`asks ${Object.entries(t.requests).map(([k, m]) => `${k} (${m})`).join(', ')}`);
  } else parts.push(t !== undefined ? `→ task ${t.taskId} ${t.status ?? ''}`.trimEnd() : `→ ${r.outcome}`);
  if (r.inputRequests) parts.push(`asks ${Object.entries(r.inputRequests).map(([k, m]) => `${k} (${m})`).join(', ')}`);
  if (r.stateIssued !== null) {
    const t = analysis.tokens.get(r.stateIssued);
    if (t) parts.push(`state ${t.format}${t.verified === true ? ' verified' : t.verified === false ? ' NOT verified' : ''}`);
  }
  for (const l of r.legacy ?? []) parts.push(`legacy ${l.method} id ${JSON.stringify(l.id)}${l.answeredIn !== undefined ? ` answered in #${l.answeredIn}` : ' unanswered'}`);
  let line = safe(parts.join('  '));
  if (r.link === 'ambiguous') line += '\n' + paint(DIM, `    ambiguous: ${r.linkReason ?? 'several chains fit'}; candidates ${candidatesText(r.candidates ?? [], analysis)}`);
  return line;
}

/** "▲ warning  state/unprotected ×40 on http://…/mcp", an example, and where each one is. */
function groupLines(g: FindingGroup, paint: Paint): string[] {
  const first = g.findings[0];
  const at = g.findings.map((f) => `#${f.exchange}${f.conversation !== null ? ` (${f.conversation})` : ''}`);
  return [
    `  ${paint(COLOR[g.severity], `${SYMBOL[g.severity]} ${g.severity}`)}  ${safe(`${g.rule} ×${g.findings.length} on ${g.server}`)}  ${paint(DIM, `[${g.clause}]`)}`,
    safe(`      e.g. #${first.exchange}: ${first.message}`),
    ...wrap(at, 100).map((l, i) => paint(DIM, `      ${i === 0 ? 'at ' : '   '}${l}`)),
  ];
}

/** Joins items with ", " into lines of about `width` characters (an item is never split). */
function wrap(items: readonly string[], width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const item of items) {
    if (line !== '' && line.length + 2 + item.length > width) {
      out.push(line + ',');
      line = item;
    } else line = line === '' ? item : `${line}, ${item}`;
  }
  if (line !== '') out.push(line);
  return out;
}

function findingLine(f: Finding, paint: Paint): string {
  return `  ${paint(COLOR[f.severity], `${SYMBOL[f.severity]} ${f.severity}`)}  ${safe(`${f.rule}  #${f.exchange}  ${f.message}`)}  ${paint(DIM, `[${f.clause}]`)}`;
}
