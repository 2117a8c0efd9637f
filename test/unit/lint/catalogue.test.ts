// The shipped rule list against the public catalogue: shared/spec/lint-rules.md plus
// lint-rules-additions.md, whose rows join the first file's and whose amended rows replace
// the row of the same id there.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../../worker/lint/rules/index.js';

interface Row { id: string; tier: number; severity: string; clause: string }

// Rows of the catalogue that ship with the tasks extension, not yet: listed by id so the
// test knows them. The tasks work ships them and empties this list (a test below fails
// as soon as one of them ships while still listed here).
const PENDING: string[] = [];

const spec = (file: string) => readFileSync(new URL(`../../../../shared/spec/${file}`, import.meta.url), 'utf8');

function rowsOf(text: string): Row[] {
  const rows: Row[] = [];
  for (const line of text.split('\n')) {
    const m = /^\|\s*`([a-z]+\/[a-z0-9-]+)`\s*\|\s*(\d)\s*\|\s*(error|warning|info)\s*\|.*\|\s*([^|]+?)\s*\|\s*$/.exec(line);
    if (m) rows.push({ id: m[1], tier: Number(m[2]), severity: m[3], clause: m[4] });
  }
  return rows;
}

/** The base rows, each replaced by an addition of the same id, then the new additions. */
function catalogue(): Row[] {
  const base = rowsOf(spec('lint-rules.md'));
  const additions = rowsOf(spec('lint-rules-additions.md'));
  const byId = new Map(additions.map((r) => [r.id, r]));
  const baseIds = new Set(base.map((r) => r.id));
  return [...base.map((r) => byId.get(r.id) ?? r), ...additions.filter((r) => !baseIds.has(r.id))];
}

/** "tier 1 holds 50 rules and tier 2 holds 16", as the additions file states its totals. */
function statedTotals(): { tier1: number; tier2: number } {
  const m = /tier 1 holds (\d+) rules and tier 2 holds (\d+)/.exec(spec('lint-rules-additions.md'));
  expect(m, 'the additions file states its totals').not.toBeNull();
  return { tier1: Number(m![1]), tier2: Number(m![2]) };
}

describe('rule catalogue', () => {
  const rows = catalogue();
  const shippable = rows.filter((r) => !PENDING.includes(r.id));
  const fields = (r: Row) => ({ id: r.id, tier: r.tier, severity: r.severity, clause: r.clause });

  it('reads both files: the totals the additions file states, with amended rows replacing theirs', () => {
    const { tier1, tier2 } = statedTotals();
    expect(rows.filter((r) => r.tier === 1)).toHaveLength(tier1);
    expect(rows.filter((r) => r.tier === 2)).toHaveLength(tier2);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.find((r) => r.id === 'meta/capability-error-shape')?.clause).toBe('base:387-392, ts:513-526');
    expect(rows.find((r) => r.id === 'mrtr/state-only-hot-loop')?.severity).toBe('info');
  });

  it('lists as pending only catalogue rows of the tasks extension that have not shipped', () => {
    for (const id of PENDING) {
      expect(id.startsWith('tasks/'), id).toBe(true);
      expect(rows.some((r) => r.id === id), `${id} is in the catalogue`).toBe(true);
      expect(ALL_RULES.some((r) => r.id === id), `${id} shipped: remove it from PENDING`).toBe(false);
    }
  });

  it('ships every catalogue rule that is not pending exactly once, with its severity and clause', () => {
    for (const row of shippable) {
      const shipped = ALL_RULES.filter((r) => r.id === row.id);
      expect(shipped, row.id).toHaveLength(1);
      expect(fields(shipped[0])).toEqual(row);
    }
  });

  it('ships only catalogue ids, each once, with matching tier, severity and clause', () => {
    const ids = ALL_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of ALL_RULES) {
      const row = rows.find((r) => r.id === rule.id);
      expect(row, rule.id).toBeDefined();
      expect(fields(rule)).toEqual(row);
    }
    expect(ids.sort()).toEqual(shippable.map((r) => r.id).sort());
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
