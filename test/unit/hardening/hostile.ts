// Shared makers for the hostile-input suite: a small good capture to break, the checks every
// hostile case ends with, and deep JSON text. Each test states the one thing it breaks.
import { expect } from 'vitest';
import { analyze, type Analysis } from '../../../worker/analysis.js';
import { exportHar, exportJsonl } from '../../../worker/capture/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { jsonReport } from '../../../worker/report/json.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

/** A good three-exchange capture: a call asking for input, its retry, and a plain call. */
export function goodRecords(): ExchangeRecord[] {
  const b = capture();
  const first = b.call('tools/call', { name: 'book', arguments: { city: 'Oslo' } }).inputRequired({ ok: ask.form('Sure?', { ok: { type: 'boolean' } }) }, 'tok-1');
  b.retry(first, { ok: reply.accept({ ok: true }) }).complete();
  b.call('tools/list').complete({ tools: [] });
  return b.build();
}

export const goodHar = (records = goodRecords()) => exportHar(records, { sanitize: false });
export const goodJsonl = (records = goodRecords()) => exportJsonl(records, { createdAt: '2026-11-30T12:00:00.000Z' });

/** `[[[…]]]` nested `n` deep. */
export const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
/** `{"a":{"a":…{}}}` nested `n` deep. */
export const deepObject = (n: number) => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);

/** A snapshot of Object.prototype's own keys and descriptors, to compare after a run. */
export function prototypeSnapshot(): string {
  const p = Object.prototype as Record<string, unknown>;
  return JSON.stringify(Object.getOwnPropertyNames(p).sort().map((k) => [k, typeof Object.getOwnPropertyDescriptor(p, k)?.value]));
}

/**
 * What must hold after any hostile input: the analysis is plain data (it crosses the worker
 * boundary by structured clone and the CLI prints it as JSON), and no rule threw.
 */
export function expectUsable(a: Analysis): void {
  expect(() => structuredClone({ decoded: a.decoded, conversations: a.conversations, tokens: a.tokens, findings: a.findings })).not.toThrow();
  expect(() => JSON.stringify({ decoded: a.decoded, conversations: a.conversations, tokens: [...a.tokens], findings: a.findings })).not.toThrow();
  expect(() => JSON.stringify(jsonReport(a, { path: 'x.har', format: 'har', exchanges: a.records.length }, '0.0.0'))).not.toThrow();
  expect(a.findings.filter((f) => f.message.startsWith('internal error'))).toEqual([]);
}

/** analyze, then expectUsable. */
export async function analyzeUsable(records: ExchangeRecord[]): Promise<Analysis> {
  const a = await analyze(records);
  expectUsable(a);
  return a;
}
