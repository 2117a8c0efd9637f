// The recorded real-peer sessions (official SDK v2 client and server, legacy SDK 1.32)
// thread exactly as the recorder's ground truth says, and lint clean apart from the one
// deliberately tampered retry.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { parseKey } from '../../../worker/tokens/index.js';
import { DEMO_STATE_KEY } from '../../../worker/demo-key.js';

interface ManifestCall { method: string; name: string; finalOutcome: 'complete' | 'error'; exchanges: number[]; rounds: number; tampered?: number; answerExchanges?: number[]; serverRequestsOn?: number }
interface ManifestFixture { era: string; entryCount: number; calls: ManifestCall[]; other: { seq: number; method: string }[] }
const manifest = JSON.parse(readFileSync('test/fixtures/sdk/manifest.json', 'utf8')) as { fixtures: Record<string, ManifestFixture> };

async function load(name: string, withKey = true): Promise<Analysis> {
  const imported = importCapture(readFileSync(`test/fixtures/sdk/${name}`, 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  const key = parseKey(DEMO_STATE_KEY);
  if (!key.ok) throw new Error(key.error);
  return analyze(imported.exchanges, withKey ? { keys: [key.key] } : {});
}

function convFor(a: Analysis, call: ManifestCall) {
  return a.conversations.find((c) => c.method === call.method && c.name === call.name && c.exchanges.join() === call.exchanges.join());
}

describe.each(['sdk-v2-auto.har', 'sdk-v2-manual.har'])('official SDK v2 session %s', (fixture) => {
  const m = manifest.fixtures[fixture];

  it('threads every call into exactly the conversation the recorder saw', async () => {
    const a = await load(fixture);
    for (const call of m.calls) {
      const c = convFor(a, call);
      expect(c, `${call.name} over exchanges ${call.exchanges}`).toBeDefined();
      expect(c!.rounds).toHaveLength(call.rounds);
      expect(c!.era).toBe('2026-07-28');
      expect(c!.status).toBe(call.finalOutcome);
      c!.rounds.slice(1).forEach((r) => expect(['state', 'match']).toContain(r.link));
    }
    // Nothing else is a multi-round conversation, and every exchange is claimed once.
    const multi = a.conversations.filter((c) => c.rounds.length > 1);
    expect(multi).toHaveLength(m.calls.filter((c) => c.rounds > 1).length);
    const claimed = a.conversations.flatMap((c) => c.exchanges).sort((x, y) => x - y);
    expect(claimed).toEqual([...new Set(claimed)]);
    for (const o of m.other) if (o.method !== 'GET' && o.method !== 'DELETE') expect(a.conversations.some((c) => c.exchanges.includes(o.seq) && c.method === o.method)).toBe(true);
  });

  it('reads every SDK token as sdk-hmac-v1 and verifies it with the demo key', async () => {
    const a = await load(fixture);
    const issued = a.conversations.flatMap((c) => c.rounds).map((r) => r.stateIssued).filter((t): t is string => t !== null);
    expect(issued.length).toBeGreaterThan(0);
    for (const t of issued) {
      const reading = a.tokens.get(t)!;
      expect(reading.format).toBe('sdk-hmac-v1');
      expect(reading.verified).toBe(true);
      expect(reading.expiresAt).not.toBeNull();
    }
  });

  it('reports verification as unknown without a key', async () => {
    const a = await load(fixture, false);
    for (const r of a.tokens.values()) expect(r.verified).toBeNull();
  });

  it('raises no error-severity finding except mrtr/state-modified on the tampered retry', async () => {
    const a = await load(fixture);
    const errors = a.findings.filter((f) => f.severity === 'error');
    const tampered = m.calls.filter((c) => c.tampered !== undefined);
    expect(errors.filter((f) => f.rule !== 'mrtr/state-modified'), JSON.stringify(errors, null, 1)).toEqual([]);
    expect(errors.map((f) => f.exchange).sort()).toEqual(tampered.map((c) => c.tampered).sort());
    for (const call of tampered) {
      const f = errors.find((x) => x.exchange === call.tampered)!;
      expect(f.conversation).toBe(convFor(a, call)!.id);
    }
  });
});

describe('legacy 2025-11-25 session (SDK 1.32)', () => {
  const m = manifest.fixtures['legacy-2025.har'];

  it('joins server-initiated requests and the client\'s POSTed answers to their call', async () => {
    const a = await load('legacy-2025.har');
    for (const call of m.calls) {
      const c = convFor(a, call);
      expect(c, `${call.name} over ${call.exchanges}`).toBeDefined();
      expect(c!.era).toBe('legacy');
      expect(c!.status).toBe(call.finalOutcome);
      const interactions = c!.rounds.flatMap((r) => r.legacy ?? []);
      expect(interactions.length).toBeGreaterThan(0);
      expect(interactions.every((i) => i.exchange === call.serverRequestsOn)).toBe(true);
      expect(interactions.map((i) => i.answeredIn).sort()).toEqual(call.answerExchanges);
      expect(interactions.every((i) => i.answerStatus === 202)).toBe(true);
    }
    expect(a.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});
