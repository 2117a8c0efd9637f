// The clause excerpts the app ships (worker/lint/clause-excerpts.ts) against the spec digest
// they were generated from, when the digest sits next to the repository as in CI.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUSE_TEXTS } from '../../../worker/lint/clause-excerpts.js';
import { buildClauseTexts, clauseModuleText, parseClause } from '../../../worker/lint/clause-text.js';
import { ALL_RULES } from '../../../worker/lint/rules/index.js';

const DIGEST = new URL('../../../../shared/spec/mcp-2026-07-28.md', import.meta.url);
const SHIPPED = new URL('../../../worker/lint/clause-excerpts.ts', import.meta.url);

describe('clause excerpts', () => {
  it.skipIf(!existsSync(DIGEST))('the shipped excerpts are what the digest gives today (else run npm run gen:clauses)', () => {
    const digest = readFileSync(DIGEST, 'utf8');
    const fresh = clauseModuleText(buildClauseTexts(digest, ALL_RULES.map((r) => r.clause)));
    expect(readFileSync(SHIPPED, 'utf8')).toBe(fresh);
  });

  it('every rule whose clause cites the spec ships at least one excerpt and a link to the cited lines', () => {
    for (const r of ALL_RULES) {
      const cites = parseClause(r.clause);
      const t = CLAUSE_TEXTS[r.clause];
      expect(t, r.id).toBeDefined();
      if (cites.length === 0) continue;
      expect(t.excerpts.length, r.id).toBeGreaterThan(0);
      expect(t.links.length, r.id).toBe(cites.length);
      for (const l of t.links) expect(l.url).toMatch(/^https:\/\/github\.com\/modelcontextprotocol\/[\w-]+\/blob\/[0-9a-f]{40}\/.+#L\d+(-L\d+)?$/);
    }
  });

  it('reads a clause with several ranges, bare numbers continuing the alias before them', () => {
    expect(parseClause('mrtr:232-233, 254')).toEqual([{ alias: 'mrtr', from: 232, to: 233 }, { alias: 'mrtr', from: 254, to: 254 }]);
    expect(parseClause('mrtr:246, elic:67-81, samp:52').map((c) => c.alias)).toEqual(['mrtr', 'elic', 'samp']);
    expect(parseClause('spec tools; seed row on flattened results')).toEqual([]);
  });

  it('the secret-field clause reads as the spec digest words it, linked to its lines of elicitation.mdx', () => {
    const t = CLAUSE_TEXTS['elic:30-33'];
    expect(t.excerpts[0].text).toContain('MUST NOT request passwords');
    expect(t.links[0].url).toMatch(/client\/elicitation\.mdx#L30-L33$/);
  });
});
