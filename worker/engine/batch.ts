// The one-pass analysis of a whole capture, for the CLI: the same threading, token readings
// and rules as the live engine (analysis-engine.ts), run once over everything, without what
// only a live session needs (version stamps, threading bookkeeping for appends, a queue of
// unchecked subjects, a lint context per chunk of checks, findings filed per subject).
// Both give byte-identical reports (test/unit/engine/batch-equals-engine.test.ts).
//
// Hazard: this is a second driver of the same parts, so anything the engine's first step
// does to the analysis (how records are ordered for threading, which URL a token is read
// for, the order subjects are linted and findings collected) must be done the same here.
import type { Analysis, AnalyzeOptions } from '../analysis.js';
import type { Conversation, DecodedExchange, ExchangeRecord } from '../protocol.js';
import { decodeExchange, releaseBodies } from '../decode/exchange.js';
import { orderForThreading, Threader } from '../thread/threader.js';
import { RuleRunner, collectFindings, type SubjectFindings } from '../lint/engine.js';
import { ALL_RULES } from '../lint/rules/index.js';
import { ConversationIndex } from './conversation-index.js';
import { tokensOf } from './fingerprint.js';
import { lintContext, type EntrySource } from './lint-context.js';
import { lintOptionsOf } from './engine-options.js';
import { TokenReadings } from './token-readings.js';
import { collectToolLists } from './tool-lists.js';
import { lastOfEachSeq } from './last-copies.js';

/** Analyses a whole capture in one pass; the same result as `analyze` (analysis.ts). Never
 *  throws on hostile data. `opts.decoded`, as for `analyze`, saves decoding again. */
export async function analyzeBatch(input: readonly ExchangeRecord[], opts: AnalyzeOptions = {}): Promise<Analysis> {
  const given = opts.decoded !== undefined && opts.decoded.length === input.length ? opts.decoded : undefined;
  const last = lastOfEachSeq(input);
  const records = last === null ? input : input.filter((_, i) => last[i]);
  const decodedGiven = given === undefined ? undefined : last === null ? given : given.filter((_, i) => last[i]);

  // By seq, as the engine keeps them. A record put twice is analysed as its last copy.
  const entryAt: { record: ExchangeRecord; decoded: DecodedExchange }[] = [];
  const decoded: DecodedExchange[] = new Array(records.length);
  records.forEach((record, i) => {
    const d = decodedGiven?.[i] ?? decodeExchange(record);
    if (opts.releaseBodies === true) releaseBodies(record);
    entryAt[record.seq] = { record, decoded: d };
    decoded[i] = d;
  });
  const entries: EntrySource = { at: (seq) => entryAt[seq] };

  // Threading: every record in send order, then ascending seq (the engine's first step
  // hands the threader its records by seq, and the sort is stable).
  const bySeq: ExchangeRecord[] = [];
  for (const e of entryAt) if (e !== undefined) bySeq.push(e.record);
  const threader = new Threader();
  for (const r of orderForThreading(bySeq)) threader.add(r, entryAt[r.seq].decoded);
  const conversations: Conversation[] = threader.conversations(opts.final ?? true, { get: (seq) => entryAt[seq]?.record.state });
  const index = new ConversationIndex();
  index.reset(conversations);
  const toolLists = collectToolLists(conversations, (seq) => entryAt[seq]?.decoded);

  // Token readings: each token once, for the URL of the exchange the engine places it in.
  const allKeys = opts.keys ?? [];
  const keysFor = opts.keysFor ?? (() => allKeys);
  const urlOf = (t: string) => {
    const seq = index.tokenExchange(t, threader.origins(t));
    return seq === undefined ? '' : (entryAt[seq]?.record.request.url ?? '');
  };
  const readings = new TokenReadings(urlOf, keysFor, opts.hmac);
  const tokens = new Set<string>();
  for (const c of conversations) for (const t of tokensOf(c)) tokens.add(t);
  await readings.readAll(tokens);

  // Lint: conversations in order, then exchanges by seq, through one context (rules are
  // pure: a context per chunk, as the engine makes, gives the same findings).
  const runner = new RuleRunner(opts.rules ?? ALL_RULES);
  const ctx = lintContext({
    options: lintOptionsOf({ ...opts, keysGiven: opts.keysFor !== undefined || allKeys.length > 0 }),
    conversations,
    entries,
    index,
    toolLists,
    reading: (t) => readings.reading(t),
    issuedBy: (t) => threader.origins(t),
  });
  const parts: SubjectFindings[] = [];
  const keep = (f: SubjectFindings) => { if (f.findings.length > 0 || f.failures.length > 0) parts.push(f); };
  for (const c of conversations) keep(runner.conversation(ctx, c));
  for (let s = 0; s < entryAt.length; s++) if (entryAt[s] !== undefined) keep(runner.exchange(ctx, s));

  return { records, decoded, conversations, tokens: readings.inOrder(conversations), findings: collectFindings(parts) };
}
