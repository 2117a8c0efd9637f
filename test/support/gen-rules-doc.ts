// Writes docs/rules.md from the shipped rules: `npm run gen:rules-doc`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLAUSE_TEXTS } from '../../worker/lint/clause-excerpts.js';
import { ALL_RULES } from '../../worker/lint/rules/index.js';
import { rulesDoc } from './rules-doc.js';

const out = fileURLToPath(new URL('../../docs/rules.md', import.meta.url));
writeFileSync(out, rulesDoc(ALL_RULES, CLAUSE_TEXTS));
console.log(`wrote ${out}`);
