// The shipped rule list against the public catalogue in shared/spec/lint-rules.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../../worker/lint/rules/index.js';

interface Row { id: string; tier: number; severity: string; clause: string }

function catalogue(): Row[] {
  const text = readFileSync(new URL('../../../../shared/spec/lint-rules.md', import.meta.url), 'utf8');
  const rows: Row[] = [];
  for (const line of text.split('\n')) {
    const m = /^\|\s*`([a-z]+\/[a-z0-9-]+)`\s*\|\s*(\d)\s*\|\s*(error|warning|info)\s*\|.*\|\s*([^|]+?)\s*\|\s*$/.exec(line);
    if (m) rows.push({ id: m[1], tier: Number(m[2]), severity: m[3], clause: m[4] });
  }
  return rows;
}

describe('rule catalogue', () => {
  const rows = catalogue();

  it('parses the catalogue table (40 tier-1 rows)', () => {
    expect(rows.filter((r) => r.tier === 1)).toHaveLength(40);
  });

  it('ships every tier-1 rule exactly once, with the catalogue severity and clause', () => {
    for (const row of rows.filter((r) => r.tier === 1)) {
      const shipped = ALL_RULES.filter((r) => r.id === row.id);
      expect(shipped, row.id).toHaveLength(1);
      expect({ id: shipped[0].id, tier: shipped[0].tier, severity: shipped[0].severity, clause: shipped[0].clause }).toEqual(row);
    }
  });

  it('ships only catalogue ids, each once, with matching tier, severity and clause', () => {
    const ids = ALL_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of ALL_RULES) {
      const row = rows.find((r) => r.id === rule.id);
      expect(row, rule.id).toBeDefined();
      expect({ id: rule.id, tier: rule.tier, severity: rule.severity, clause: rule.clause }).toEqual(row);
    }
  });

  it('ships every tier-2 rule too (54 in all)', () => {
    expect(rows).toHaveLength(54);
    expect(ALL_RULES.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it('lists tier 1 before tier 2', () => {
    const tiers = ALL_RULES.map((r) => r.tier);
    expect([...tiers].sort()).toEqual(tiers);
  });

  it('names each rule file after its id', async () => {
    for (const rule of ALL_RULES) {
      const url = new URL(`../../../worker/lint/rules/${rule.id}.ts`, import.meta.url).href;
      const mod = await import(/* @vite-ignore */ url);
      expect(Object.values(mod), rule.id).toContain(rule);
    }
  });
});
