// docs/rules.md is generated from the rule files; this fails when a rule changed and the
// page was not written again (run `npm run gen:rules-doc`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUSE_TEXTS } from '../../../worker/lint/clause-excerpts.js';
import { ALL_RULES } from '../../../worker/lint/rules/index.js';
import { rulesDoc } from '../../support/rules-doc.js';

const PAGE = new URL('../../../docs/rules.md', import.meta.url);

describe('docs/rules.md', () => {
  it('is what the shipped rules give today (else run npm run gen:rules-doc)', () => {
    expect(readFileSync(PAGE, 'utf8')).toBe(rulesDoc(ALL_RULES, CLAUSE_TEXTS));
  });

  it('has one row per rule, naming its severity and tier', () => {
    const page = readFileSync(PAGE, 'utf8');
    for (const r of ALL_RULES) {
      expect(page, r.id).toContain(`| [\`${r.id}\`](../worker/lint/rules/${r.id}.ts) | ${r.tier} | ${r.severity} |`);
    }
  });

  it('marks an HTTP-only rule as such, so a reader knows it never fires on stdio', () => {
    const http = ALL_RULES.find((r) => r.transport === 'http')!;
    expect(rulesDoc([http], CLAUSE_TEXTS)).toMatch(new RegExp(`\\| ${http.severity} \\| [^|]+ \\| http \\|`));
  });
});
