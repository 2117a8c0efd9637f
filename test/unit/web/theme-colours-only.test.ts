// The dark theme changes colours and nothing else: no size, font, spacing or layout rule
// differs between the themes. The browser's geometry sweep (test/e2e/ui-geometry.spec.ts)
// relies on this to measure the dark theme at one window size instead of every size: were
// a dark rule to move a box, this test fails and the sweep must measure dark everywhere.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = 'web';

/** Every page source that can hold style rules (components and stylesheets). */
function styleSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return styleSources(p);
    return /\.(svelte|css)$/.test(e.name) ? [p] : [];
  });
}

/** The text inside the braces of each `@media (prefers-color-scheme: …)` block of `css`. */
function schemeBlocks(css: string): string[] {
  const blocks: string[] = [];
  for (const m of css.matchAll(/@media[^{]*prefers-color-scheme[^{]*\{/g)) {
    let depth = 1;
    let i = m.index! + m[0].length;
    const start = i;
    for (; i < css.length && depth > 0; i++) depth += css[i] === '{' ? 1 : css[i] === '}' ? -1 : 0;
    blocks.push(css.slice(start, i - 1));
  }
  return blocks;
}

describe('the dark theme', () => {
  it('sets only colour custom properties: a dark rule cannot move or resize anything', () => {
    const blocks = styleSources(WEB).flatMap((file) => schemeBlocks(readFileSync(file, 'utf8')).map((text) => ({ file, text })));
    expect(blocks.length, 'a prefers-color-scheme block in web/').toBeGreaterThan(0);
    const notColour: string[] = [];
    let declarations = 0;
    for (const { file, text } of blocks) {
      for (const [, prop, value] of text.matchAll(/([\w-]+)\s*:\s*([^;{}]+)(?:;|(?=\}))/g)) {
        declarations++;
        if (!prop.startsWith('--') || !/^#[0-9a-f]{3,8}$/i.test(value.trim())) notColour.push(`${file}: ${prop}: ${value.trim()}`);
      }
    }
    expect(declarations).toBeGreaterThan(0);
    expect(notColour).toEqual([]);
  });
});
