// What a verification key is entered for, and what findings are grouped under: one name per
// MCP server, stdio servers included.
import { describe, expect, it } from 'vitest';
import { Keyring } from '../../../worker/services/keyring.js';
import { serverOf } from '../../../worker/tokens/server-of.js';

describe('serverOf', () => {
  it('names an HTTP server by origin and path, without query, hash or trailing slash', () => {
    expect(serverOf('http://127.0.0.1:3001/mcp/?k=1#x')).toBe('http://127.0.0.1:3001/mcp');
    expect(serverOf('https://example.com/')).toBe('https://example.com/');
  });

  it('names each wrapped stdio server by its own name, never "null"', () => {
    expect(serverOf('stdio://server-memory')).toBe('stdio://server-memory');
    expect(serverOf('stdio://a')).not.toBe(serverOf('stdio://b'));
    expect(serverOf('stdio://my%20server')).toBe('stdio://my%20server');
  });

  it('keeps a key entered for one stdio server away from another stdio server\'s tokens', () => {
    const keys = new Keyring();
    expect(keys.set(serverOf('stdio://server-a'), 'server-a-key-0123456789abcdef0123456789')).toEqual({ ok: true });
    expect(keys.keysFor(serverOf('stdio://server-a'))).toHaveLength(1);
    expect(keys.keysFor(serverOf('stdio://server-b'))).toEqual([]);
  });
  it('names a server the same the first time, again, and after more URLs than it remembers', () => {
    const urls = Array.from({ length: 2500 }, (_, i) => `http://h${i % 7}.test:${3000 + i}/mcp/${i}/?q=${i}#f`);
    const first = urls.map(serverOf);
    expect(first[12]).toBe('http://h5.test:3012/mcp/12');
    expect(urls.map(serverOf)).toEqual(first);
    expect(serverOf('not a url')).toBe('not a url');
    expect(serverOf('not a url')).toBe('not a url');
  });
});
