#!/usr/bin/env node
// `npm test`: the one test command (README and .ci/run). Makes sure what the tests need is
// here (Debian's Chromium for the browser tests, the compiled CLI), then runs the type
// checks, the unit and integration tests (vitest) and the browser tests (Playwright).
// Plain JavaScript so it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(label, cmd, args, opts = {}) {
  console.log(`\n== ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  return r.status === 0;
}

function ensureChromium() {
  if (existsSync(chromium)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`Chromium is missing at ${chromium}; installing Debian's package (apt-get install chromium).`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get update', 'apt-get', ['update', '-qq'], { env }) && run('install chromium', 'apt-get', ['install', '-y', '-qq', 'chromium'], { env }) && existsSync(chromium)) return true;
  }
  console.error(`The browser tests need Chromium at ${chromium} (Playwright cannot download browsers here).\n` +
    `Install Debian's package:  sudo apt-get update && sudo apt-get install -y chromium\n` +
    `or point CHROMIUM_PATH at a Chromium binary.`);
  return false;
}

const results = [];
const step = (label, ok) => { results.push([label, ok]); return ok; };

if (!existsSync('node_modules')) {
  console.error('Dependencies are not installed: run `npm ci` first.');
  process.exit(1);
}
step('build CLI', run('build CLI', 'npx', ['tsc', '-p', 'cli/tsconfig.json']));
step('typecheck', run('typecheck', 'npm', ['run', '--silent', 'typecheck']));
// Both runners also write JSON reports, so the summary can count tests, not steps.
const VITEST_JSON = 'test-results/vitest.json';
// Absolute: Playwright resolves a relative output name against its config's folder.
const PLAYWRIGHT_JSON = resolve('test-results/playwright.json');
mkdirSync('test-results', { recursive: true });
rmSync(VITEST_JSON, { force: true });
rmSync(PLAYWRIGHT_JSON, { force: true });
step('unit and integration tests', run('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`]));
if (existsSync('test/e2e/playwright.config.ts')) {
  if (step('chromium', ensureChromium())) {
    step('browser tests', run('playwright', 'npx', ['playwright', 'test', '-c', 'test/e2e/playwright.config.ts', '--reporter=list,json'],
      { env: { ...process.env, CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON } }));
  }
}

/** Passed and failed test counts from the runners' JSON reports (0/0 when absent). */
function counts() {
  let passed = 0, failed = 0;
  try {
    const v = JSON.parse(readFileSync(VITEST_JSON, 'utf8'));
    passed += v.numPassedTests ?? 0;
    failed += (v.numFailedTests ?? 0);
  } catch { /* vitest did not get far enough to write it */ }
  try {
    const p = JSON.parse(readFileSync(PLAYWRIGHT_JSON, 'utf8'));
    passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
    failed += p.stats?.unexpected ?? 0;
  } catch { /* playwright did not run */ }
  return { passed, failed };
}

const failedSteps = results.filter(([, ok]) => !ok).length;
const tests = counts();
console.log('\n== summary');
for (const [label, ok] of results) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label}`);
console.log(`tests: ${tests.passed} passed, ${tests.failed} failed`);
process.exit(failedSteps === 0 && tests.failed === 0 ? 0 : 1);
