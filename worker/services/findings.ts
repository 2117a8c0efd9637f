// The lint rules this worker checks, and a session's findings summarised for the page.
import { CLAUSE_TEXTS } from '../lint/clause-excerpts.js';
import { ALL_RULES } from '../lint/rules/index.js';
import { findingsSummary, type FindingsSummary } from '../view/findings-summary.js';
import type { Answer, RuleInfo } from '../view/types.js';
import type { ServiceContext } from './context.js';

export function createFindingsService({ guard, checkedOf }: Pick<ServiceContext, 'guard' | 'checkedOf'>) {
  return {
    /** Every rule, with the spec clause it checks. */
    rules(): RuleInfo[] {
      return ALL_RULES.map((r) => ({
        id: r.id, severity: r.severity, clause: r.clause, title: r.title, tier: r.tier,
        clauseText: CLAUSE_TEXTS[r.clause] ?? { excerpts: [], links: [] },
      }));
    },

    /** Every finding of the session, repeated ones grouped per server and rule (the page's summary). */
    summary(session: string): Promise<Answer<FindingsSummary>> {
      return guard(async () => {
        const b = await checkedOf(session);
        return findingsSummary(b.analysis.findings, b.analysis.records, [...b.byId.values()].map((v) => v.conversation));
      });
    },
  };
}
