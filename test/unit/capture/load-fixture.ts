// Shared loading of the producer fixtures (test/fixtures/producers) for the capture tests.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../fixtures/producers/', import.meta.url));

/** The text of one fixture file. */
export function fixture(name: string): string {
  return readFileSync(dir + name, 'utf8');
}

/** The MCP bodies every producer fixture carries (written once, compared everywhere). */
export const bodies = JSON.parse(fixture('mcp-bodies.json')) as {
  call1: string; res1: string; call2: string; ev1: string; ev2: string; sse: string;
};
