// The service worker's table of announced Console sends: a send is matched by URL and exact
// body, once, and only while fresh.
import { describe, expect, it } from 'vitest';
import { expectConsoleSend, takeConsoleLink } from '../../../web/sw/console-links.js';

describe('announced Console sends', () => {
  it('gives the link to the matching request once', () => {
    expectConsoleSend('http://127.0.0.1/demo/mcp', '{"id":1}', { id: 'r1', derivedFrom: 'x-3' }, 1000);
    expect(takeConsoleLink('http://127.0.0.1/demo/mcp', '{"id":2}', 1001)).toBeUndefined();
    expect(takeConsoleLink('http://127.0.0.1/other', '{"id":1}', 1001)).toBeUndefined();
    expect(takeConsoleLink('http://127.0.0.1/demo/mcp', '{"id":1}', 1001)).toEqual({ id: 'r1', derivedFrom: 'x-3' });
    expect(takeConsoleLink('http://127.0.0.1/demo/mcp', '{"id":1}', 1002)).toBeUndefined();
  });

  it('forgets an announcement whose send never came', () => {
    expectConsoleSend('http://h/mcp', 'b', { id: 'r2' }, 0);
    expect(takeConsoleLink('http://h/mcp', 'b', 61_000)).toBeUndefined();
    expect(takeConsoleLink('http://h/mcp', undefined, 0)).toBeUndefined();
  });
});
