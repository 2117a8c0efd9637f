// The browser tests' Chromium flags (test/e2e/chromium-args.ts): Chromium keeps only the last
// --disable-features, so ours must carry Playwright's list whole, read from its bundle.
import { describe, expect, it } from 'vitest';
import { chromiumArgs, EXTRA_DISABLED_FEATURES, playwrightBundle, playwrightDisabledFeatures } from '../../e2e/chromium-args.ts';

const BUNDLE = `
    disabledFeatures = [
      // See https://github.com/microsoft/playwright/issues/14047
      "AvoidUnnecessaryBeforeUnloadCheckSync",
      // Keep HTTP navigations on HTTP, "quoted" in a comment.
      "HttpsUpgrades",
      "PaintHolding"
    ].filter(Boolean);
    enabledFeatures = () => [process.env.X ? "" : "CDPScreenshotNewSurface"];`;

/** The value of the one --disable-features flag in `args`. */
function disabled(args: string[]): string[] {
  const flags = args.filter((a) => a.startsWith('--disable-features='));
  expect(flags).toHaveLength(1);
  return flags[0].slice('--disable-features='.length).split(',');
}

describe('the browser tests\' Chromium flags', () => {
  it('reads the names of Playwright\'s disabled-features list, skipping its comments', () => {
    expect(playwrightDisabledFeatures(BUNDLE)).toEqual(['AvoidUnnecessaryBeforeUnloadCheckSync', 'HttpsUpgrades', 'PaintHolding']);
  });

  it('reads nothing from a list that is missing or holds more than plain names', () => {
    expect(playwrightDisabledFeatures('chromiumSwitches = () => []')).toBeUndefined();
    expect(playwrightDisabledFeatures('disabledFeatures = [\n  process.env.X ? "" : "PaintHolding",\n]')).toBeUndefined();
    expect(playwrightDisabledFeatures('disabledFeatures = []')).toBeUndefined();
  });

  it('disables Playwright\'s features and the omnibox popup in one flag', () => {
    const warnings: string[] = [];
    expect(disabled(chromiumArgs(BUNDLE, (m) => warnings.push(m)))).toEqual(['AvoidUnnecessaryBeforeUnloadCheckSync', 'HttpsUpgrades', 'PaintHolding', ...EXTRA_DISABLED_FEATURES]);
    expect(warnings).toEqual([]);
  });

  it('adds no --disable-features and warns, naming the file, when Playwright\'s list cannot be read', () => {
    const warnings: string[] = [];
    const args = chromiumArgs('nothing here', (m) => warnings.push(m));
    expect(args.some((a) => a.startsWith('--disable-features'))).toBe(false);
    expect(args).toContain('--no-sandbox');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/chromium-args\.ts.*coreBundle\.js/);
  });

  it('reads the list of the Playwright installed here, so the flag keeps every feature it disables', () => {
    const bundle = playwrightBundle();
    const theirs = playwrightDisabledFeatures(bundle);
    expect(theirs, 'the parser no longer reads this Playwright\'s bundle').toBeDefined();
    const warnings: string[] = [];
    expect(disabled(chromiumArgs(bundle, (m) => warnings.push(m)))).toEqual([...theirs!, ...EXTRA_DISABLED_FEATURES]);
    expect(warnings).toEqual([]);
  });
});
