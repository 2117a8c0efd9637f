// Building 2026-07-28 requests and their exact retries, without a server.
import { describe, expect, it } from 'vitest';
import { buildRequest, buildRetry, capabilitiesFrom, encodeHeaderValue, paramHeaders, toHttp } from '../../../worker/console/request.js';
import { decodeHeaderValue } from '../../../worker/decode/headers.js';

const clientInfo = { name: 'console-test', version: '1.0.0' };

describe('request building', () => {
  it('carries the _meta envelope and every required header on a tools/call', () => {
    const caps = capabilitiesFrom({ elicitationForm: true, sampling: true });
    const { body, headers } = buildRequest({ method: 'tools/call', params: { name: 'setup_wizard', arguments: {} }, id: 7, clientInfo, capabilities: caps });
    expect(body).toEqual({
      jsonrpc: '2.0', id: 7, method: 'tools/call',
      params: {
        name: 'setup_wizard', arguments: {},
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': clientInfo, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {} } },
      },
    });
    expect(headers).toEqual([
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Accept', value: 'application/json, text/event-stream' },
      { name: 'MCP-Protocol-Version', value: '2026-07-28' },
      { name: 'Mcp-Method', value: 'tools/call' },
      { name: 'Mcp-Name', value: 'setup_wizard' },
    ]);
  });

  it('base64-encodes an Mcp-Name that is not plain visible ASCII, and the decoder reads it back', () => {
    const { headers } = buildRequest({ method: 'tools/call', params: { name: 'café_order' }, id: 1, clientInfo });
    const name = headers.find((h) => h.name === 'Mcp-Name')!.value;
    expect(name).toBe('=?base64?Y2Fmw6lfb3JkZXI=?=');
    expect(decodeHeaderValue(name)).toEqual({ ok: true, value: 'café_order', encoded: true });
    expect(encodeHeaderValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(encodeHeaderValue(' padded')).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue('=?base64?abc?=')).toMatch(/^=\?base64\?PT9iYXNlNjQ/);
    expect(encodeHeaderValue('plain name with inner spaces')).toBe('plain name with inner spaces');
  });

  it('uses the uri as Mcp-Name for resources/read and sends none for tools/list', () => {
    expect(buildRequest({ method: 'resources/read', params: { uri: 'demo://secret-note' }, id: 1 }).headers).toContainEqual({ name: 'Mcp-Name', value: 'demo://secret-note' });
    expect(buildRequest({ method: 'tools/list', id: 1 }).headers.some((h) => h.name === 'Mcp-Name')).toBe(false);
  });

  it('mirrors x-mcp-header arguments as Mcp-Param-* and omits absent or null ones', () => {
    const schema = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer', 'x-mcp-header': 'N' }, flag: { type: 'boolean', 'x-mcp-header': 'Flag' }, gone: { type: 'string', 'x-mcp-header': 'Gone' } } };
    expect(paramHeaders(schema, { region: 'eu-west ', n: 42, flag: false, gone: null })).toEqual([
      { name: 'Mcp-Param-Region', value: '=?base64?ZXUtd2VzdCA=?=' },
      { name: 'Mcp-Param-N', value: '42' },
      { name: 'Mcp-Param-Flag', value: 'false' },
    ]);
  });

  it('builds the exact retry: same params, the answers, the token byte for byte, a new id', () => {
    const original = buildRequest({ method: 'tools/call', params: { name: 't', arguments: { a: 1 } }, id: 1, clientInfo, capabilities: { elicitation: {} } });
    const token = 'v1.eyJwIjoxfQ.  odd but opaque ';
    const retry = buildRetry(original, { resultType: 'input_required', requestState: token }, { k: { action: 'accept', content: { x: 1 } } }, 2);
    expect(retry.body.id).toBe(2);
    expect(retry.body.params).toEqual({ ...original.body.params, inputResponses: { k: { action: 'accept', content: { x: 1 } } }, requestState: token });
    expect(JSON.parse(toHttp('http://x/mcp', retry).body).params.requestState).toBe(token);
    expect(retry.headers).toEqual(original.headers);
  });

  it('sends no requestState when the answer had none, and drops an earlier round\'s fields', () => {
    const original = buildRequest({ method: 'tools/call', params: { name: 't', requestState: 'old', inputResponses: { a: {} } }, id: 1 });
    const retry = buildRetry(original, { resultType: 'input_required', inputRequests: { b: { method: 'roots/list' } } }, { b: { roots: [] } }, 'r2');
    expect(retry.body.params.requestState).toBeUndefined();
    expect(retry.body.params.inputResponses).toEqual({ b: { roots: [] } });
  });

  it('turns the capability toggles into ClientCapabilities', () => {
    expect(capabilitiesFrom({})).toEqual({});
    expect(capabilitiesFrom({ elicitationForm: true, elicitationUrl: true, samplingTools: true, roots: true })).toEqual({ elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} });
    expect(capabilitiesFrom({ elicitationUrl: true })).toEqual({ elicitation: { url: {} } });
  });
});
