// Every relative link in README.md and docs/ points at a file that exists, and every
// #anchor at a heading of its target, so moving a section cannot silently break a link.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchors, relativeLinks, slug } from '../../support/markdown-links.js';

const ROOT = resolve(import.meta.dirname, '../../..');

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return markdownUnder(p);
    return p.endsWith('.md') ? [p] : [];
  });
}

/** "file:line: target: what is wrong" for each link of `file` that does not resolve. */
function brokenLinks(file: string, read: (p: string) => string, exists: (p: string) => boolean): string[] {
  const broken: string[] = [];
  for (const { line, target } of relativeLinks(read(file))) {
    const [path, anchor] = target.split('#', 2);
    const dest = path ? resolve(dirname(file), decodeURI(path)) : file;
    const where = `${relative(ROOT, file)}:${line}: ${target}`;
    if (!exists(dest)) {
      broken.push(`${where}: ${relative(ROOT, dest)} does not exist`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!dest.endsWith('.md')) continue; // a line anchor into source (#L12) is GitHub's, not a heading
    if (!headingAnchors(read(dest)).has(anchor)) broken.push(`${where}: no heading in ${relative(ROOT, dest)} gives #${anchor}`);
  }
  return broken;
}

const read = (p: string) => readFileSync(p, 'utf8');
const docs = [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs'))];

describe('links in README.md and docs/', () => {
  it('every relative link resolves to a file, and every #anchor to a heading of it', () => {
    const broken = docs.flatMap((f) => brokenLinks(f, read, existsSync));
    expect(broken).toEqual([]);
  });

  it('reads the README and every page of docs/, and finds links in them', () => {
    expect(docs.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', 'docs/guide.md', 'docs/rules.md']));
    expect(docs.reduce((n, f) => n + relativeLinks(read(f)).length, 0)).toBeGreaterThan(50);
  });

  it('reports a link to a missing file and an anchor no heading gives, with file and line', () => {
    const files: Record<string, string> = {
      [join(ROOT, 'a.md')]: '# Title\n\nSee [b](b.md#the-part) and [gone](missing.md).\n\n[self](#title) [nowhere](#nope)\n',
      [join(ROOT, 'b.md')]: '# B\n\n## The part\n',
    };
    const broken = brokenLinks(join(ROOT, 'a.md'), (p) => files[p], (p) => p in files);
    expect(broken).toEqual(['a.md:3: missing.md: missing.md does not exist', 'a.md:5: #nope: no heading in a.md gives #nope']);
  });

  it("slugs headings as GitHub does: lowercase, punctuation dropped but - and _, spaces to -", () => {
    expect(slug("Filters (the inspector's filter box)")).toBe('filters-the-inspectors-filter-box');
    expect(slug('Stdio servers: `wrap`')).toBe('stdio-servers-wrap');
    expect(slug('Replay: a regression test for a server\'s MRTR flows')).toBe('replay-a-regression-test-for-a-servers-mrtr-flows');
    expect(slug('The engine in Node: appends, the worker\'s heap, search')).toBe('the-engine-in-node-appends-the-workers-heap-search');
    expect([...headingAnchors('# A\n## A\n```\n# not a heading\n```\n')]).toEqual(['a', 'a-1']);
  });

  it('ignores links inside code', () => {
    expect(relativeLinks('```md\n[x](nowhere.md)\n```\n`[y](also-nowhere.md)` [z](here.md)')).toEqual([{ line: 4, target: 'here.md' }]);
  });
});
