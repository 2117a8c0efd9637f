// Reads the links and headings of a Markdown file as GitHub renders them, for the test that
// every relative link in README.md and docs/ resolves (test/unit/docs/links.test.ts).
// Hazard: code is not Markdown: fenced blocks and `inline code` hold example links and
// `#` lines that are no headings, so both are blanked before anything is read.

export interface MarkdownLink {
  /** 1-based line of the link in its file. */
  line: number;
  /** The link's target as written: a path, `path#anchor` or `#anchor`. */
  target: string;
}

/** The text with fenced code blocks and inline code replaced by spaces (lines kept). */
function withoutCode(md: string): string {
  let fenced = false;
  return md.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    if (fenced) return '';
    return line.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length));
  }).join('\n');
}

/** GitHub's anchor for a heading: lowercase, punctuation other than - and _ dropped, spaces to -. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link reads as its text
    .replace(/[*_`]/g, (c) => (c === '_' ? '_' : ''))
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Every anchor a file's headings give, repeated headings numbered as GitHub does (-1, -2). */
export function headingAnchors(md: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of md.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Links and images whose target is not a URL with a scheme (http:, mailto:, …). */
export function relativeLinks(md: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutCode(md).split('\n').forEach((text, i) => {
    for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ line: i + 1, target });
    }
  });
  return links;
}
