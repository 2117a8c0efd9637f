// The command line the browser tests launch Debian's Chromium with. Hazard: Chromium keeps
// only the last --disable-features it is given, and Playwright passes its own list first
// (features that would break automation), so ours must repeat Playwright's list, read here
// from the playwright-core it ships with, or we would switch those back on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const BASE = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * Chromium's WebUI omnibox popup: every new window (each test's browser context) loads it in
 * a renderer of its own, about a second of CPU for a popup a headless test never opens.
 */
export const EXTRA_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * The feature names in Playwright's `disabledFeatures = [ … ]` list, from the text of its
 * bundle; undefined when the list is not there as that, or holds anything but plain names.
 */
export function playwrightDisabledFeatures(bundle: string): string[] | undefined {
  const list = /\bdisabledFeatures = \[([^\]]*)\]/.exec(bundle)?.[1];
  if (list === undefined) return undefined;
  const code = list.split('\n').filter((line) => !line.trim().startsWith('//')).join('\n');
  const names = [...code.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  const rest = code.replace(/"[^"]*"/g, '').replace(/[\s,]/g, '');
  return names.length > 0 && rest === '' && names.every((n) => /^[A-Za-z0-9]+$/.test(n)) ? names : undefined;
}

/** Our flags; with Playwright's disabled features and ours, when its list can be read. */
export function chromiumArgs(bundle: string, warn: (message: string) => void): string[] {
  const theirs = playwrightDisabledFeatures(bundle);
  if (!theirs) {
    warn('test/e2e/chromium-args.ts: cannot read the disabledFeatures list in playwright-core/lib/coreBundle.js; ' +
      `Chromium runs without --disable-features=${EXTRA_DISABLED_FEATURES.join(',')} (slower: a popup renderer per context). Update the parser for this Playwright.`);
    return BASE;
  }
  return [...BASE, `--disable-features=${[...theirs, ...EXTRA_DISABLED_FEATURES].join(',')}`];
}

/** The text of the playwright-core bundle the tests run with. */
export function playwrightBundle(): string {
  const pkg = createRequire(import.meta.url).resolve('playwright-core/package.json');
  return readFileSync(pkg.replace(/package\.json$/, 'lib/coreBundle.js'), 'utf8');
}
