// A step's answer (worker/engine/engine-step.ts): the whole lists are built on first read
// only, and once, so a live host that reads only the changed rows never pays for them.
import { describe, expect, it } from 'vitest';
import { engineStep } from '../../../worker/engine/engine-step.js';
import type { Finding, TokenReading } from '../../../worker/protocol.js';

describe('an engine step', () => {
  it('builds its findings and tokens on first read, once each, and never when they are not read', () => {
    const built: string[] = [];
    const findings: Finding[] = [];
    const tokens = new Map<string, TokenReading>();
    const build = {
      findings: () => (built.push('findings'), findings),
      tokens: () => (built.push('tokens'), tokens),
    };
    const step = engineStep({ conversations: [], changed: new Set(['c0']), removed: new Set(), full: false, unchecked: 2 }, build);
    expect([step.changed.has('c0'), step.full, step.unchecked]).toEqual([true, false, 2]);
    expect(built).toEqual([]);
    expect(step.findings).toBe(findings);
    expect(step.findings).toBe(findings);
    expect(built).toEqual(['findings']);
    expect(step.tokens).toBe(tokens);
    expect(step.tokens).toBe(tokens);
    expect(built).toEqual(['findings', 'tokens']);
  });
});
