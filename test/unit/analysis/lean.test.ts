// Lean mode (the CLI's: decode on demand, keep no message trees) gives exactly the
// conversations and findings of the normal mode.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { parseKey } from '../../../worker/tokens/index.js';
import { DEMO_STATE_KEY } from '../../../worker/demo-key.js';

describe.each(['sdk-v2-auto.har', 'sdk-v2-manual.har', 'legacy-2025.har'])('lean analysis of %s', (name) => {
  it('matches the normal analysis and keeps no decoded exchanges', async () => {
    const imported = importCapture(readFileSync(`test/fixtures/sdk/${name}`, 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const key = parseKey(DEMO_STATE_KEY);
    if (!key.ok) throw new Error(key.error);
    const full = await analyze(imported.exchanges, { keys: [key.key] });
    const lean = await analyze(imported.exchanges, { keys: [key.key], lean: true, rules: undefined });
    expect(lean.decoded).toEqual([]);
    expect(lean.conversations).toEqual(full.conversations);
    expect(lean.findings).toEqual(full.findings);
    expect([...lean.tokens]).toEqual([...full.tokens]);
  });
});
