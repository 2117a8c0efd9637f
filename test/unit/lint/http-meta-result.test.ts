// Streamable HTTP header rules, per-request _meta, and resultType.
import { describe, expect, it } from 'vitest';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { claimOf, conversationOf, expectNone, expectOne, run } from './lint-helpers.js';

const book = { name: 'book', arguments: { city: 'Oslo' } };

describe('http/accept', () => {
  it('fires when Accept lists only application/json', async () => {
    const b = capture();
    b.call('tools/call', book).header('Accept', 'application/json');
    const a = await run(b.build());
    expectOne(a, 'http/accept', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent with both types in any order and with parameters', async () => {
    const b = capture();
    b.call('tools/call', book).header('Accept', 'text/event-stream, application/json;q=0.9');
    b.call('tools/list').legacy().header('Accept', 'application/json');
    expectNone(await run(b.build()), 'http/accept');
  });
});

describe('http/protocol-version-header', () => {
  it('fires when the header is missing', async () => {
    const b = capture();
    b.call('tools/list').header('MCP-Protocol-Version', null);
    const a = await run(b.build());
    expectOne(a, 'http/protocol-version-header', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('fires when the header differs from _meta', async () => {
    const b = capture();
    b.call('tools/list').header('MCP-Protocol-Version', '2026-06-30');
    const a = await run(b.build());
    expectOne(a, 'http/protocol-version-header', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent when they agree, and on legacy requests', async () => {
    const b = capture();
    b.call('tools/list');
    b.call('tools/list').legacy().header('MCP-Protocol-Version', null);
    expectNone(await run(b.build()), 'http/protocol-version-header');
  });
});

describe('http/method-header', () => {
  it('fires when Mcp-Method differs from the body method', async () => {
    const b = capture();
    b.call('tools/call', book).header('Mcp-Method', 'tools/list');
    const a = await run(b.build());
    expectOne(a, 'http/method-header', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent when it matches (header names are case-insensitive)', async () => {
    const b = capture();
    b.call('tools/call', book).header('mcp-method', null).header('MCP-METHOD', 'tools/call');
    expectNone(await run(b.build()), 'http/method-header');
  });
});

describe('http/name-header', () => {
  it('fires when a retry drops Mcp-Name', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: reply.roots('file:///x') }).header('Mcp-Name', null).status(400).error(-32020, 'missing Mcp-Name', { status: 400 });
    const a = await run(b.build());
    expectOne(a, 'http/name-header', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('fires when a base64 value decodes to another name', async () => {
    const b = capture();
    b.call('resources/read', { uri: 'file:///a.txt' }).header('Mcp-Name', `=?base64?${Buffer.from('file:///b.txt').toString('base64')}?=`);
    const a = await run(b.build());
    expectOne(a, 'http/name-header', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent for a base64-encoded non-ASCII name, and on methods without a name', async () => {
    const b = capture();
    b.call('tools/call', { name: 'météo', arguments: {} });
    b.call('tools/list');
    const records = b.build();
    expect(records[0].request.headers.find((h) => h.name === 'mcp-name')?.value).toMatch(/^=\?base64\?/);
    expectNone(await run(records), 'http/name-header');
  });
});

describe('http/mismatch-accepted', () => {
  it('fires when a request with a mismatched header gets 200', async () => {
    const b = capture();
    b.call('tools/call', book).header('Mcp-Name', 'other');
    const a = await run(b.build());
    expectOne(a, 'http/mismatch-accepted', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent when the server rejects it with 400 -32020', async () => {
    const b = capture();
    b.call('tools/call', book).header('Mcp-Name', 'other').error(-32020, 'headers and body disagree', { status: 400 });
    const a = await run(b.build());
    expectNone(a, 'http/mismatch-accepted');
    expect(a.findings.some((f) => f.rule === 'http/name-header')).toBe(true);
  });
});

describe('http/content-type', () => {
  it('fires when a request is answered text/html', async () => {
    const b = capture();
    b.call('tools/list').contentType('text/html');
    const a = await run(b.build());
    expectOne(a, 'http/content-type', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent on JSON with a charset, SSE, and a notification answered 202', async () => {
    const b = capture();
    b.call('tools/list').contentType('application/json; charset=utf-8');
    b.call('tools/call', book).sse();
    b.notification('notifications/cancelled', { requestId: 1, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } });
    expectNone(await run(b.build()), 'http/content-type');
  });
});

describe('meta/required-missing', () => {
  it('fires when clientCapabilities is missing', async () => {
    const b = capture();
    b.call('tools/list').meta({ 'io.modelcontextprotocol/clientCapabilities': undefined });
    const a = await run(b.build());
    expectOne(a, 'meta/required-missing', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('fires when a request the header calls modern has no _meta at all', async () => {
    const b = capture();
    b.call('tools/list').meta(null);
    const a = await run(b.build());
    expectOne(a, 'meta/required-missing', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent with both fields, and on legacy requests', async () => {
    const b = capture();
    b.call('tools/list').capabilities({});
    b.call('tools/list').legacy().header('MCP-Protocol-Version', '2025-11-25').meta(null);
    expectNone(await run(b.build()), 'meta/required-missing');
  });
});

describe('meta/client-info-missing', () => {
  it('fires when clientInfo is missing', async () => {
    const b = capture();
    b.call('tools/list').meta({ 'io.modelcontextprotocol/clientInfo': undefined });
    const a = await run(b.build());
    expectOne(a, 'meta/client-info-missing', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0) });
  });

  it('stays silent when clientInfo is sent', async () => {
    const b = capture();
    b.call('tools/list');
    expectNone(await run(b.build()), 'meta/client-info-missing');
  });
});

describe('result/type-missing', () => {
  it('fires on a modern result without resultType', async () => {
    const b = capture();
    b.call('tools/list').complete({ resultType: undefined, tools: [] });
    const a = await run(b.build());
    expectOne(a, 'result/type-missing', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent on legacy results and on error responses', async () => {
    const b = capture();
    b.call('tools/list').legacy().complete({ resultType: undefined, tools: [] });
    b.call('tools/list').error(-32603, 'boom');
    expectNone(await run(b.build()), 'result/type-missing');
  });
});

describe('result/type-unknown', () => {
  it('fires on an unknown resultType', async () => {
    const b = capture();
    b.call('tools/list').complete({ resultType: 'pending', tools: [] });
    const a = await run(b.build());
    expectOne(a, 'result/type-unknown', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('fires on "task" when the request did not declare the tasks extension', async () => {
    const b = capture();
    b.call('tools/call', book).complete({ resultType: 'task', taskId: 't1', status: 'working' });
    const a = await run(b.build());
    expectOne(a, 'result/type-unknown', { exchange: 0, severity: 'error', conversation: claimOf(a, 0) });
  });

  it('stays silent on "task" when the request declared the extension', async () => {
    const b = capture();
    b.call('tools/call', book)
      .capabilities({ extensions: { 'io.modelcontextprotocol/tasks': {} } })
      .complete({ resultType: 'task', taskId: 't1', status: 'working' });
    expectNone(await run(b.build()), 'result/type-unknown');
  });
});
