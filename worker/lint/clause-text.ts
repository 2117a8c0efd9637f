// The text behind a rule's clause ("elic:30-33"): the lines of the spec digest that cite an
// overlapping range of the same page, and links to those lines of the spec at the commit
// the digest read. The app ships the result (clause-excerpts.ts, written by
// `npm run gen:clauses`); a unit test checks it still matches the digest when present.

/** One cited range: `elic:30-33` is { alias: 'elic', from: 30, to: 33 }. */
export interface Cite {
  alias: string;
  from: number;
  to: number;
}

/** What the rule sheet shows for a clause. */
export interface ClauseText {
  /** Digest lines citing the clause, with the section they sit in. */
  excerpts: { section: string; text: string }[];
  /** The cited lines of the spec itself (GitHub, at the commit the digest read). */
  links: { label: string; url: string }[];
}

interface Source {
  repo: string;
  commit: string;
  path: string;
}

const CITE = /([A-Za-z][\w/.-]*):(\d+(?:-\d+)?(?:,\s*\d+(?:-\d+)?)*)/g;
const MAX_EXCERPTS = 4;
const MAX_TEXT = 420;

/** The ranges of a clause; bare numbers after a comma continue the alias before them. */
export function parseClause(clause: string, known?: ReadonlySet<string>): Cite[] {
  const out: Cite[] = [];
  for (const m of clause.matchAll(CITE)) {
    const alias = m[1];
    if (known && !known.has(alias)) continue;
    for (const part of m[2].split(',')) {
      const [a, b] = part.trim().split('-').map(Number);
      out.push({ alias, from: a, to: b ?? a });
    }
  }
  return out;
}

const overlaps = (x: Cite, y: Cite): boolean => x.alias === y.alias && x.from <= y.to && y.from <= x.to;

// The digest's alias table (after "Citation aliases"): | `mrtr` | docs/…/mrtr.mdx |, rows
// naming several aliases at once (`elic` / `samp` / `roots` | …/elicitation.mdx / sampling.mdx /
// roots.mdx, or seps joined by commas), and `ext-tasks:` for the Tasks repository. Rows whose
// path is a pattern (`…`, `*`) name no single file and are left out.
function aliasTable(digest: string): Map<string, { repo: 'main' | 'tasks'; path: string }> {
  const out = new Map<string, { repo: 'main' | 'tasks'; path: string }>();
  const start = digest.indexOf('**Citation aliases**');
  if (start < 0) return out;
  let inTable = false;
  for (const line of digest.slice(start).split('\n').slice(1)) {
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line.slice(1, -1).split('|').map((c) => c.trim());
    if (cells.length !== 2) continue;
    const aliases = [...cells[0].matchAll(/`([^`]+)`/g)].map((x) => x[1]);
    let text = cells[1].replace(/\s*\(legacy\)\s*$/, '');
    const repo = text.startsWith('ext-tasks:') ? 'tasks' : 'main';
    text = text.replace(/^ext-tasks:\s*/, '');
    const paths = text.includes(', ') ? text.split(', ') : text.split(' / ');
    if (paths.length !== aliases.length) continue;
    const dir = paths[0].slice(0, paths[0].lastIndexOf('/') + 1);
    aliases.forEach((a, i) => {
      const p = i > 0 && !paths[i].includes('/') ? dir + paths[i] : paths[i];
      if (!p.includes('…') && !p.includes('*') && !a.includes('…')) out.set(a, { repo, path: p });
    });
  }
  return out;
}

function commits(digest: string): { main: string; tasks: string } {
  const main = /`modelcontextprotocol\/modelcontextprotocol`, snapshot HEAD `([0-9a-f]{40})`/.exec(digest)?.[1] ?? 'main';
  const tasks = /`modelcontextprotocol\/ext-tasks`, snapshot HEAD `([0-9a-f]{40})`/.exec(digest)?.[1] ?? 'main';
  return { main, tasks };
}

function lineUrl(s: Source, c: Cite): string {
  const lines = c.from === c.to ? `L${c.from}` : `L${c.from}-L${c.to}`;
  return `https://github.com/${s.repo}/blob/${s.commit}/${s.path}#${lines}`;
}

// A table row reads as its cells without the cite cell; prose is kept as written.
function readable(block: string): string {
  const t = block.trim().replace(/\*\*/g, '');
  if (!t.startsWith('|')) return t.replace(/^\s*(?:[*-]|\d+\.)\s+/, '').replace(/\s*\n\s*/g, ' ');
  const onlyCites = (c: string) => c.replace(CITE, '').replace(/[\s;,]/g, '') === '';
  return t.slice(1, -1).split('|').map((c) => c.trim()).filter((c) => c !== '' && !onlyCites(c)).join(' · ');
}

// The digest as blocks: each table row alone, and prose split at blank lines, headings and
// list items, so a clause's excerpt is the whole sentence around its cite.
function blocksOf(digest: string): { section: string; text: string }[] {
  const out: { section: string; text: string }[] = [];
  let section = '';
  let cur: string[] = [];
  let leadIn: number | null = null;
  const flush = () => {
    if (cur.length) out.push({ section, text: cur.join('\n') });
    cur = [];
  };
  for (const line of digest.split('\n')) {
    const h = /^#{2,4}\s+(.*)$/.exec(line);
    if (h) { flush(); leadIn = null; section = h[1].trim(); continue; }
    if (line.trim() === '' || line.startsWith('```')) { flush(); leadIn = null; continue; }
    const item = /^\s*(?:[*-]|\d+\.)\s/.test(line);
    const indent = line.length - line.trimStart().length;
    // A lead-in ending with a colon keeps the list under it: the cite is often on the lead-in.
    if (leadIn !== null && (indent > leadIn || (leadIn < 0 && item))) { cur.push(line); continue; }
    leadIn = null;
    if (line.startsWith('|') || item) flush();
    if (line.trimEnd().endsWith(':')) leadIn = item ? indent : -1;
    cur.push(line);
    if (line.startsWith('|')) flush();
  }
  flush();
  return out;
}

const cut = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s);

/** Excerpts and links for each clause, read from the digest's text. */
export function buildClauseTexts(digest: string, clauses: readonly string[]): Record<string, ClauseText> {
  const table = aliasTable(digest);
  const known = new Set(table.keys());
  const { main, tasks } = commits(digest);
  // Every digest block with the cites it makes (the citation scheme of §0 itself excluded).
  const cited = blocksOf(digest)
    .filter((b) => !b.section.startsWith('0.'))
    .map((b) => ({ cites: parseClause(b.text, known), section: b.section, text: readable(b.text) }))
    .filter((b) => b.cites.length > 0);
  const out: Record<string, ClauseText> = {};
  for (const clause of [...new Set(clauses)].sort()) {
    const mine = parseClause(clause, known);
    const excerpts: ClauseText['excerpts'] = [];
    const seen = new Set<string>();
    for (const c of cited) {
      if (excerpts.length >= MAX_EXCERPTS) break;
      if (!c.cites.some((x) => mine.some((y) => overlaps(x, y))) || seen.has(c.text)) continue;
      seen.add(c.text);
      excerpts.push({ section: c.section, text: cut(c.text) });
    }
    const links = mine.map((c) => {
      const t = table.get(c.alias)!;
      const src: Source = t.repo === 'tasks'
        ? { repo: 'modelcontextprotocol/ext-tasks', commit: tasks, path: t.path }
        : { repo: 'modelcontextprotocol/modelcontextprotocol', commit: main, path: t.path };
      return { label: `${t.path.split('/').pop()} ${c.from === c.to ? `line ${c.from}` : `lines ${c.from}-${c.to}`}`, url: lineUrl(src, c) };
    });
    out[clause] = { excerpts, links };
  }
  return out;
}

/** The shipped module's text (stable: sorted keys, one JSON value). */
export function clauseModuleText(texts: Record<string, ClauseText>): string {
  return [
    '// Generated by `npm run gen:clauses` from the spec digest (shared/spec/mcp-2026-07-28.md):',
    '// the digest lines behind each rule clause, shipped so the rule sheet needs no network.',
    '// Do not edit; a unit test checks it against the digest.',
    "import type { ClauseText } from './clause-text.js';",
    '',
    `export const CLAUSE_TEXTS: Readonly<Record<string, ClauseText>> = ${JSON.stringify(texts, null, 2)};`,
    '',
  ].join('\n');
}
