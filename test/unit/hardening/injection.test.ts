// Data that tries to be code: tokens holding HTML and script, and the keys `__proto__`,
// `constructor` and `prototype` in every map the core reads. Both must come out as plain
// data, verbatim, and nothing may reach Object.prototype.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { importCapture, exportHar } from '../../../worker/capture/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { jsonReport } from '../../../worker/report/json.js';
import { junitReport } from '../../../worker/report/junit.js';
import { textReport } from '../../../worker/report/text.js';
import { inspectToken } from '../../../worker/tokens/index.js';
import { capture } from '../../support/capture-builder.js';
import { analyzeUsable, deepArray, prototypeSnapshot } from './hostile.js';

const HOSTILE_TOKENS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '</script><script>alert(document.cookie)</script>',
  'javascript:alert(1)',
  '<svg/onload=alert(1)>\u2028\u2029&amp;&lt;',
  JSON.stringify({ html: '<b onmouseover=alert(1)>x</b>', exp: 4102444800 }),
  Buffer.from('{"sub":"<script>alert(1)</script>"}').toString('base64url'),
];

describe('tokens holding HTML and script', () => {
  it('keeps them verbatim as data through threading, token reading and every report', async () => {
    const b = capture();
    for (const [i, tok] of HOSTILE_TOKENS.entries()) {
      const first = b.call('tools/call', { name: `t${i}` }).inputRequired({ k: { method: 'roots/list', params: {} } }, tok);
      b.retry(first, { k: { roots: [] } }).complete();
    }
    const a = await analyzeUsable(b.build());
    expect(a.conversations.map((c) => [c.rounds[0].stateIssued, c.rounds[1].stateSent, c.rounds[1].link])).toEqual(HOSTILE_TOKENS.map((t) => [t, t, 'state']));
    expect(a.tokens.get(HOSTILE_TOKENS[5])!.payload).toEqual({ html: '<b onmouseover=alert(1)>x</b>', exp: 4102444800 });
    expect(a.tokens.get(HOSTILE_TOKENS[6])!.payload).toEqual({ sub: '<script>alert(1)</script>' });
    const json = JSON.parse(JSON.stringify(jsonReport(a, { path: 'x.har', format: 'har', exchanges: 14 }, '0')));
    expect(json.conversations[5].rounds[0].requestState.payload.html).toBe('<b onmouseover=alert(1)>x</b>');
    // JUnit is XML: a token quoted in a finding must be escaped there, and only there.
    const xml = junitReport(a.conversations, [...a.findings, { rule: 'x/y', severity: 'error', exchange: 0, conversation: null, message: HOSTILE_TOKENS[0], clause: 'c' }], 'a<b>.har');
    expect(xml).not.toMatch(/<script|<img|<svg|<b /);
    expect(xml).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(textReport(a, { path: 'x.har', format: 'har', exchanges: 14 }, false)).not.toContain('\x1b');
  });

  it('round-trips them through a HAR file unchanged', async () => {
    const b = capture();
    const first = b.call('tools/call', { name: 'h' }).inputRequired({ k: { method: 'roots/list', params: {} } }, HOSTILE_TOKENS[2]);
    b.retry(first, { k: { roots: [] } }).complete();
    const out = importCapture(exportHar(b.build(), { sanitize: false }));
    if (!out.ok) throw new Error(out.error.message);
    const a = await analyzeUsable(out.exchanges);
    expect(a.conversations[0].rounds[1].stateSent).toBe(HOSTILE_TOKENS[2]);
  });
});

const KEYS = ['__proto__', 'constructor', 'prototype'];
/** `{"__proto__":v,"constructor":v,"prototype":v}` as JSON text (JSON.parse makes them own keys). */
const hostileMap = (v: string) => `{${KEYS.map((k) => `"${k}":${v}`).join(',')}}`;
const POLLUTE = '{"polluted":"yes","toString":"no","hasOwnProperty":"no"}';

/** A retry chain whose every map carries the hostile keys, as raw JSON text. */
function pollutingCapture(): ExchangeRecord[] {
  const b = capture();
  b.call('tools/call', { name: 'p' });
  b.call('tools/call', { name: 'p' });
  const [r0, r1] = b.build();
  const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":${hostileMap(POLLUTE)},"io.modelcontextprotocol/clientCapabilities":${hostileMap(POLLUTE)},${hostileMap(POLLUTE).slice(1, -1)}}`;
  const params = (extra: string) => `{"name":"p","arguments":${hostileMap(POLLUTE)},"_meta":${meta},${hostileMap(POLLUTE).slice(1, -1)}${extra}}`;
  const inputRequests = `{${KEYS.map((k) => `"${k}":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":${hostileMap('{"type":"string"}')},"required":${JSON.stringify(KEYS)}}}}`).join(',')}}`;
  const token = Buffer.from(`{"exp":4102444800,"sub":"u",${hostileMap(POLLUTE).slice(1, -1)}}`).toString('base64url');
  r0.request.body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${params('')}}`;
  r0.response!.body = `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"${token}","inputRequests":${inputRequests},${hostileMap(POLLUTE).slice(1, -1)}}}`;
  const inputResponses = `{${KEYS.map((k) => `"${k}":{"action":"accept","content":${hostileMap('"x"')}}`).join(',')}}`;
  r1.request.body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":${params(`,"requestState":"${token}","inputResponses":${inputResponses}`)}}`;
  r1.response!.body = `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[],"structuredContent":${hostileMap(POLLUTE)},${hostileMap(POLLUTE).slice(1, -1)}}}`;
  for (const r of [r0, r1]) {
    for (const k of KEYS) {
      r.request.headers.push({ name: k, value: POLLUTE });
      r.response!.headers.push({ name: k, value: POLLUTE });
    }
  }
  return [r0, r1];
}

describe('prototype-pollution keys in every map the core reads', () => {
  let before: string;
  beforeEach(() => { before = prototypeSnapshot(); });
  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypeSnapshot()).toBe(before);
  });

  it('reads them as own data in params, _meta, arguments, inputRequests, inputResponses, result, headers and token payloads', async () => {
    const records = pollutingCapture();
    const a = await analyzeUsable(records);
    expect(a.conversations).toHaveLength(1);
    const [r0, r1] = a.conversations[0].rounds;
    expect(r1.link).toBe('state');
    expect(Object.keys(r0.inputRequests!)).toEqual(KEYS);
    expect(Object.values(r0.inputRequests!)).toEqual(KEYS.map(() => 'elicitation/create'));
    expect(r1.inputResponses).toEqual(KEYS);
    const params = a.decoded[0].sent[0].params!;
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(Object.keys(params)).toEqual(expect.arrayContaining(KEYS));
    expect(Object.getOwnPropertyDescriptor(params, '__proto__')!.value).toEqual(JSON.parse(POLLUTE));
    const payload = a.tokens.get(r0.stateIssued!)!.payload as Record<string, unknown>;
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
    expect(Object.keys(payload)).toEqual(expect.arrayContaining(KEYS));
    expect(payload.polluted).toBeUndefined();
    // The hostile keys survive every way the analysis leaves the core, still as own keys.
    const cloned = structuredClone(a.conversations[0].rounds[0].inputRequests!);
    expect(Object.keys(cloned)).toEqual(KEYS);
    const json = JSON.parse(JSON.stringify(jsonReport(a, { path: 'x', format: 'har', exchanges: 2 }, '0')));
    expect(Object.keys(json.conversations[0].rounds[0].inputRequests)).toEqual(KEYS);
    // The schema and form rules read the hostile keys as field names, not inherited members.
    expect(a.findings.filter((f) => f.rule === 'elicit/content-schema')).toEqual([]);
  });

  it('leaves nothing on Object.prototype after a HAR import of the same capture', async () => {
    const text = exportHar(pollutingCapture(), { sanitize: false }).replace('"_mrtr":{', `${hostileMap(POLLUTE).slice(1, -1)},"_mrtr":{${hostileMap(POLLUTE).slice(1, -1)},`);
    const out = importCapture(text);
    if (!out.ok) throw new Error(out.error.message);
    for (const r of out.exchanges) expect(Object.keys(r)).not.toContain('__proto__');
    await analyzeUsable(out.exchanges);
  });

  it('keeps them own keys when a body too deep to keep whole is rebuilt', async () => {
    const b = capture();
    b.call('tools/call', { name: 'deep' }).rawBody(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deep","arguments":${hostileMap(`{"deep":${deepArray(5000)},"polluted":"yes"}`)}}}`);
    const a = await analyzeUsable(b.build());
    const args = a.decoded[0].sent[0].params!.arguments as Record<string, unknown>;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.keys(args)).toEqual(KEYS);
    expect(JSON.stringify(args)).toContain('[elided: nested deeper than');
  });

  it('treats inherited member names in lint inputs as missing data, never as inherited members', async () => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    const b = capture();
    b.call('tools/call', { name: 'n' });
    b.call('tools/call', { name: 'n' });
    const [r0, r1] = b.build();
    const schema = `{"type":"object","properties":{},"required":${JSON.stringify(names)}}`;
    r0.response!.body = `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"tok","inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":${schema}}}}}}`;
    const extra = names.map((n) => `"${n}":{"action":"decline"}`).join(',');
    r1.request.body = r1.request.body!.replace('"params":{', `"params":{"requestState":"tok","inputResponses":{"k":{"action":"accept","content":{}},${extra}},`);
    const a = await analyzeUsable([r0, r1]);
    const schemaFinding = a.findings.find((f) => f.rule === 'elicit/content-schema');
    const unrequested = a.findings.find((f) => f.rule === 'mrtr/response-unrequested');
    for (const n of names) {
      expect(schemaFinding?.message, `required ${n}`).toContain(`required field "${n}" is missing`);
      expect(unrequested?.message, `extra ${n}`).toContain(`"${n}"`);
    }
  });

  it('reads a token whose payload is only hostile keys as JSON, without inheriting from it', () => {
    for (const tok of [hostileMap(POLLUTE), Buffer.from(hostileMap(POLLUTE)).toString('base64url')]) {
      const r = inspectToken(tok);
      const p = r.payload as Record<string, unknown>;
      expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
      expect(Object.keys(p)).toEqual(KEYS);
      expect(r.principalBound).toBe(false);
    }
  });

  it('survives analyze of records built with hostile keys in code, not just in JSON text', async () => {
    const b = capture();
    const args = JSON.parse(hostileMap(POLLUTE)) as Record<string, unknown>;
    const first = b.call('tools/call', { name: 'c', arguments: args }).inputRequired(JSON.parse(`{"__proto__":{"method":"roots/list"},"constructor":{"method":"roots/list"}}`), 'tok');
    b.retry(first, JSON.parse('{"__proto__":{"roots":[]},"constructor":{"roots":[]}}')).complete();
    const a = await analyze(b.build());
    expect(a.conversations[0].rounds[1].inputResponses).toEqual(['__proto__', 'constructor']);
  });
});
