// The whole pipeline over a capture: decode → era → thread → read tokens → lint.
// Used by the CLI in Node and by the analysis worker in the browser.
import type { Conversation, DecodedExchange, ExchangeRecord, Finding, RpcMessage, Round, TokenReading } from './protocol.js';
import { decodeExchange, releaseBodies } from './decode/exchange.js';
import { asObject, own } from './decode/meta.js';
import { orderForThreading, Threader } from './thread/threader.js';
import { readToken, readTokenSync, type HmacSha256Check, type TokenKey } from './tokens/index.js';
import { runRules } from './lint/engine.js';
import { DEFAULT_LINT_OPTIONS, type LintContext, type LintOptions, type Rule, type StateOrigin } from './lint/rule.js';
import { ALL_RULES } from './lint/rules/index.js';

export interface AnalyzeOptions {
  /** Keys tried on every token (see tokens/keys.ts for the accepted syntaxes). */
  keys?: readonly TokenKey[];
  /**
   * Keys per server instead: given the URL of the exchange that issued a token (or sent
   * it, when no answer in the capture issued it), the keys to try. A token whose server
   * has no key reads as unverified (null), never as failing. Overrides `keys`.
   */
  keysFor?: (url: string) => readonly TokenKey[];
  maxRounds?: number;
  ttlBoundSeconds?: number;
  /** The capture has ended (CLI, imports): waiting chains are `abandoned`. Default true. */
  final?: boolean;
  /** Rules to run; every shipped rule by default. */
  rules?: readonly Rule[];
  /**
   * A synchronous HMAC-SHA256 check for sdk-hmac-v1 and mac-json tokens (see
   * tokens/verify-hmac.ts): the CLI injects node:crypto's; without one, WebCrypto's.
   */
  hmac?: HmacSha256Check;
  /**
   * The caller hands the records over: once an exchange is decoded, its body texts are
   * dropped from the record (decode/exchange.ts `releaseBodies`, which says why). For hosts
   * that show no raw bodies (the CLI). Hazard: mutates the records passed in.
   */
  releaseBodies?: boolean;
  /**
   * `decodeExchange(input[i])` for every i, made by the caller: the CLI decodes each record
   * as it is imported and drops its bodies at once, while they are young and cheap to
   * collect. Ignored unless it has one entry per input record.
   */
  decoded?: readonly DecodedExchange[];
}

export interface Analysis {
  /** The records analysed: the input, less the earlier copies of a repeated seq. */
  records: readonly ExchangeRecord[];
  /** Decoded exchanges, in the same order as `records`. */
  decoded: DecodedExchange[];
  conversations: Conversation[];
  /** Every distinct requestState token seen, sent or issued. */
  tokens: Map<string, TokenReading>;
  findings: Finding[];
}

/** Analyses a capture. Never throws on hostile data; bad bodies become problems/findings. */
export async function analyze(input: readonly ExchangeRecord[], opts: AnalyzeOptions = {}): Promise<Analysis> {
  const given = opts.decoded !== undefined && opts.decoded.length === input.length ? opts.decoded : undefined;
  const last = lastOfEachSeq(input);
  const records = last === null ? input : input.filter((_, i) => last[i]);
  const decoded: DecodedExchange[] = given === undefined ? new Array(records.length) : last === null ? given.slice() : given.filter((_, i) => last[i]);
  // Hot path: lookups by seq run millions of times on big captures. Seqs are positions, so
  // arrays indexed by seq are dense; any other number still works, as a sparse array's key.
  const recordAt: ExchangeRecord[] = [];
  const decodedAt: DecodedExchange[] = [];
  for (let i = 0; i < records.length; i++) {
    if (given === undefined) {
      decoded[i] = decodeExchange(records[i]);
      if (opts.releaseBodies === true) releaseBodies(records[i]);
    }
    recordAt[records[i].seq] = records[i];
    decodedAt[records[i].seq] = decoded[i];
  }

  const threader = new Threader();
  for (const r of orderForThreading(records)) threader.add(r, decodedAt[r.seq]);
  const conversations = threader.conversations(opts.final ?? true, { get: (seq) => recordAt[seq]?.state });

  const allKeys = opts.keys ?? [];
  const keysFor = opts.keysFor ?? (() => allKeys);
  const tokens = await readTokens(conversations, (seq) => keysFor(recordAt[seq]?.request.url ?? ''), opts.hmac);
  const options: LintOptions = {
    maxRounds: opts.maxRounds ?? DEFAULT_LINT_OPTIONS.maxRounds,
    ttlBoundSeconds: opts.ttlBoundSeconds ?? DEFAULT_LINT_OPTIONS.ttlBoundSeconds,
    keysGiven: opts.keysFor !== undefined || (opts.keys?.length ?? 0) > 0,
  };
  const ctx = lintContext(recordAt, decodedAt, conversations, tokens, options, (t) => threader.origins(t));
  const findings = runRules(opts.rules ?? ALL_RULES, ctx, records.map((r) => r.seq));
  return { records, decoded, conversations, tokens, findings };
}

/**
 * Hazard: one exchange can arrive twice (a live record re-sent as it progresses, a merged
 * capture), sharing a seq with its earlier copy. Threading both would give two
 * conversations the same id and claim one request twice, so the last copy of a seq wins,
 * as a JSONL line re-written for an id does. Which records to keep, in order; null when
 * there are no repeats (no copy then).
 */
function lastOfEachSeq(records: readonly ExchangeRecord[]): boolean[] | null {
  const last: number[] = [];
  let repeats = false;
  records.forEach((r, i) => {
    if (last[r.seq] !== undefined) repeats = true;
    last[r.seq] = i;
  });
  return repeats ? records.map((r, i) => last[r.seq] === i) : null;
}

async function readTokens(conversations: readonly Conversation[], keysOf: (seq: number) => readonly TokenKey[], hmac: HmacSha256Check | undefined): Promise<Map<string, TokenReading>> {
  // Each token is read once, with the keys of the exchange that issued it (else sent it).
  const where = new Map<string, number>();
  for (const c of conversations) for (const r of c.rounds) if (r.stateIssued !== null && !where.has(r.stateIssued)) where.set(r.stateIssued, r.exchange);
  for (const c of conversations) for (const r of c.rounds) if (r.stateSent !== null && !where.has(r.stateSent)) where.set(r.stateSent, r.exchange);
  const out = new Map<string, TokenReading>();
  const pending: Promise<void>[] = [];
  for (const [t, seq] of where) {
    const keys = keysOf(seq);
    // Most readings are made here and now (no keys, or HMAC with a sync check): no promise each.
    const now = readTokenSync(t, keys, hmac);
    if (now !== undefined) out.set(t, now);
    else pending.push(readToken(t, keys, hmac).then((reading) => void out.set(t, reading)));
  }
  if (pending.length === 0) return out; // already in the order tokens were first seen
  await Promise.all(pending);
  // Insertion order above depends on which readings finished first: rebuild it in the
  // order tokens were first seen, so every run gives the same map.
  return new Map([...where.keys()].map((t) => [t, out.get(t)!]));
}

function lintContext(
  recordAt: readonly (ExchangeRecord | undefined)[],
  decodedAt: readonly (DecodedExchange | undefined)[],
  conversations: readonly Conversation[],
  tokens: Map<string, TokenReading>,
  options: LintOptions,
  origins: (token: string) => readonly StateOrigin[],
): LintContext {
  const convsOf: Conversation[][] = [];
  for (const c of conversations) for (const seq of c.exchanges) {
    const list = convsOf[seq];
    if (list) list.push(c);
    else convsOf[seq] = [c];
  }
  const toolLists = collectToolLists(conversations, (seq) => decodedAt[seq]);
  const record = (seq: number) => {
    const r = recordAt[seq];
    if (r === undefined) throw new Error(`no exchange with seq ${seq}`);
    return r;
  };
  const decoded = (seq: number) => {
    const d = decodedAt[seq];
    if (d === undefined) throw new Error(`no exchange with seq ${seq}`);
    return d;
  };
  return {
    options,
    conversations,
    record,
    decoded,
    request: (round: Round): RpcMessage => decoded(round.exchange).sent[round.message],
    answer: (round: Round) => (round.answer >= 0 ? decoded(round.exchange).received[round.answer] : undefined),
    token: (t) => tokens.get(t),
    conversationsOf: (seq) => convsOf[seq] ?? [],
    issuedBy: origins,
    toolDefinition: (name, beforeSeq) => {
      for (let i = toolLists.length - 1; i >= 0; i--) {
        if (toolLists[i].seq >= beforeSeq) continue;
        const def = toolLists[i].tools.get(name);
        if (def) return def;
      }
      return undefined;
    },
  };
}

/** Tool definitions from every `tools/list` result, in capture order. */
function collectToolLists(conversations: readonly Conversation[], decodedOf: (seq: number) => DecodedExchange | undefined) {
  const lists: { seq: number; tools: Map<string, Record<string, unknown>> }[] = [];
  for (const c of conversations) {
    if (c.method !== 'tools/list') continue;
    for (const r of c.rounds) {
      const ans = r.answer >= 0 ? decodedOf(r.exchange)?.received[r.answer] : undefined;
      const tools = own(ans?.result, 'tools');
      if (!Array.isArray(tools)) continue;
      const map = new Map<string, Record<string, unknown>>();
      for (const t of tools) {
        const o = asObject(t);
        const n = own(o, 'name');
        if (o && typeof n === 'string') map.set(n, o);
      }
      lists.push({ seq: r.exchange, tools: map });
    }
  }
  return lists.sort((a, b) => a.seq - b.seq);
}
