// Writes worker/lint/clause-excerpts.ts from the spec digest next to the repository
// (../shared/spec, or the folder given as the first argument): `npm run gen:clauses`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildClauseTexts, clauseModuleText } from '../../worker/lint/clause-text.js';
import { ALL_RULES } from '../../worker/lint/rules/index.js';

const specDir = process.argv[2] ?? fileURLToPath(new URL('../../../shared/spec/', import.meta.url));
const digest = readFileSync(`${specDir.replace(/\/?$/, '/')}mcp-2026-07-28.md`, 'utf8');
const out = fileURLToPath(new URL('../../worker/lint/clause-excerpts.ts', import.meta.url));
writeFileSync(out, clauseModuleText(buildClauseTexts(digest, ALL_RULES.map((r) => r.clause))));
console.log(`wrote ${out}`);
