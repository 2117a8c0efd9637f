// Filters over a real analysed capture: the official SDK v2 client stepping the demo server
// by hand (sdk-v2-manual.har: a 3-round wizard, two parallel confirm_action chains, and one
// confirm_action retry with a tampered requestState that the server refused).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { DEMO_STATE_KEY } from '../../../worker/demo-key.js';
import { parseKey } from '../../../worker/tokens/index.js';
import { findingsByConversation, matchesFilter, parseFilter, searchText, type FilterSubject } from '../../../worker/query/index.js';

let analysis: Analysis;
let subjects: FilterSubject[];

beforeAll(async () => {
  const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-manual.har', 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  const key = parseKey(DEMO_STATE_KEY);
  if (!key.ok) throw new Error(key.error);
  analysis = await analyze(imported.exchanges, { keys: [key.key] });
  const bySeq = new Map(analysis.records.map((r, i) => [r.seq, i] as const));
  const findings = findingsByConversation(analysis.findings);
  subjects = analysis.conversations.map((conversation) => ({
    conversation,
    findings: findings.get(conversation.id) ?? [],
    text: () => {
      const idx = conversation.exchanges.map((seq) => bySeq.get(seq)!);
      return searchText(idx.map((i) => analysis.records[i]), idx.map((i) => analysis.decoded[i]));
    },
  }));
});

/** Ids of the conversations a filter selects, in list order. */
function select(filter: string): string[] {
  const got = parseFilter(filter);
  if (!got.ok) throw new Error(got.error.message);
  return subjects.filter((s) => matchesFilter(got.terms, s)).map((s) => s.conversation.id);
}

const ids = (pred: (c: Analysis['conversations'][number]) => boolean) => analysis.conversations.filter(pred).map((c) => c.id);

describe('filters over the SDK v2 manual session', () => {
  it('has the conversations these tests rely on: a wizard, three confirm_action chains (one tampered)', () => {
    expect(analysis.conversations.map((c) => `${c.name ?? c.method}:${c.status}`).sort())
      .toEqual(['confirm_action:complete', 'confirm_action:complete', 'confirm_action:error', 'server/discover:complete', 'setup_wizard:complete']);
  });

  it('selects exactly the tampered conversation with rule:mrtr/*', () => {
    const tampered = ids((c) => c.status === 'error');
    expect(tampered).toHaveLength(1);
    expect(select('rule:mrtr/*')).toEqual(tampered);
    expect(select('rule:mrtr/state-modified severity:error')).toEqual(tampered);
  });

  it('selects the tampered conversation with status:error', () => {
    expect(select('status:error')).toEqual(ids((c) => c.name === 'confirm_action' && c.status === 'error'));
  });

  it('excludes the three confirm_action chains with -name:confirm_action', () => {
    const kept = select('-name:confirm_action');
    expect(kept).toEqual(ids((c) => c.name !== 'confirm_action'));
    expect(analysis.conversations.length - kept.length).toBe(3);
  });

  it('selects every MRTR chain with has:state, and nothing else', () => {
    expect(select('has:state')).toEqual(ids((c) => c.rounds.length > 1));
    expect(select('has:state')).toHaveLength(4);
  });

  it('selects the wizard by round count', () => {
    expect(select('rounds:>2')).toEqual(ids((c) => c.name === 'setup_wizard'));
    expect(select('method:tools/call rounds:2')).toHaveLength(3);
  });

  it('combines keys as the design example does', () => {
    expect(select('method:tools/call status:error rule:mrtr/* -name:echo')).toEqual(ids((c) => c.status === 'error'));
    expect(select('method:tools/* -has:findings era:modern')).toHaveLength(3);
    expect(select('era:legacy')).toEqual([]);
  });

  it('finds a conversation by an exchange it claims and by its id', () => {
    const wizard = analysis.conversations.find((c) => c.name === 'setup_wizard')!;
    expect(select(`exchange:${wizard.exchanges[2]}`)).toEqual([wizard.id]);
    expect(select(`id:${wizard.id}`)).toEqual([wizard.id]);
  });

  it('searches bodies with free text, case-insensitively', () => {
    expect(select('SETUP_WIZARD')).toEqual(ids((c) => c.name === 'setup_wizard'));
    expect(select('"-32602"')).toEqual(ids((c) => c.status === 'error'));
    expect(select('inputResponses -name:setup_wizard')).toEqual(ids((c) => c.name === 'confirm_action'));
  });
});
