#!/usr/bin/env node
// `npm test`: the one test command (README and .ci/run). Makes sure what the tests need is
// here (Debian's Chromium for the browser tests, the compiled CLI), then runs the type
// checks, the unit and integration tests (vitest) and the browser tests (Playwright).
// Plain JavaScript so it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const started = Date.now();
/** How long the command `run` ran last took (ms); `step` files it with the step. */
let lastMs = 0;
/** A duration as the summary prints it: `42 s`, `3 min 07 s`. */
function took(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** Runs one step's command in the foreground; its time goes into the summary. */
function run(label, cmd, args, opts = {}) {
  console.log(`\n== ${label}: ${cmd} ${args.join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  lastMs = Date.now() - t0;
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
/** Records a step's outcome with the time of the command `run` ran last. */
const step = (label, ok) => { results.push([label, ok, lastMs]); lastMs = 0; return ok; };

if (!existsSync('node_modules')) {
  console.error('Dependencies are not installed: run `npm ci` first.');
  process.exit(1);
}
// The CLI is compiled to dist/ by its own type check, run beside the others (test/typecheck.js).
step('build CLI and typecheck', run('build CLI and typecheck', 'node', ['test/typecheck.js', '--emit-cli']));
// Both runners also write JSON reports, so the summary can count tests, not steps.
const VITEST_JSON = 'test-results/vitest.json';
// Absolute: Playwright resolves a relative output name against its config's folder.
const PLAYWRIGHT_JSON = resolve('test-results/playwright.json');
mkdirSync('test-results', { recursive: true });
rmSync(VITEST_JSON, { force: true });
rmSync(PLAYWRIGHT_JSON, { force: true });
step('unit and integration tests', run('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`]));
if (existsSync('test/e2e/playwright.config.ts')) {
  // The browser tests run against the production server (`node server/start.js`, which
  // serves dist/). Built here, when stale, as a step of its own, so a broken build fails
  // as itself and not as a web server that never started.
  if (step('chromium', ensureChromium()) && step('build (page, service worker, server)', run('build', 'node', ['server/start.js', '--build-only']))) {
    step('browser tests', run('playwright', 'npx', ['playwright', 'test', '-c', 'test/e2e/playwright.config.ts', '--reporter=list,json'],
      { env: { ...process.env, CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON } }));
  }
}

/** First line of a failure message, without colour codes, cut to one readable line. */
function firstLine(message) {
  const line = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((l) => l.trim()) ?? '';
  return line.trim().slice(0, 200);
}

/**
 * Passed and failed test counts from the runners' JSON reports (0/0 when absent), and the
 * failed and flaky tests by name: a CI log keeps only its tail, so the summary must say
 * which test broke and how.
 */
function counts() {
  let passed = 0, failed = 0;
  const failures = [], flaky = [];
  try {
    const v = JSON.parse(readFileSync(VITEST_JSON, 'utf8'));
    passed += v.numPassedTests ?? 0;
    failed += (v.numFailedTests ?? 0);
    for (const file of v.testResults ?? []) {
      const where = relative(process.cwd(), file.name ?? '');
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedTests) failures.push(`${where} › ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`);
      // A file that failed as a whole (it did not load, or a hook threw) has no failed test.
      if (file.status === 'failed' && failedTests.length === 0) failures.push(`${where}: ${firstLine(file.message)}`);
    }
  } catch { /* vitest did not get far enough to write it */ }
  try {
    const p = JSON.parse(readFileSync(PLAYWRIGHT_JSON, 'utf8'));
    passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
    failed += p.stats?.unexpected ?? 0;
    const walk = (suite, path) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          const name = `${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}`;
          const error = firstLine(t.results?.find((r) => r.error)?.error?.message);
          if (t.status === 'unexpected') failures.push(`${name}: ${error}`);
          else if (t.status === 'flaky') flaky.push(`${name}: ${error}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child, child.title && !child.file ? [...path, child.title] : path);
    };
    for (const suite of p.suites ?? []) walk(suite, []);
  } catch { /* playwright did not run */ }
  return { passed, failed, failures, flaky };
}

const failedSteps = results.filter(([, ok]) => !ok).length;
const tests = counts();
console.log('\n== summary');
for (const [label, ok, ms] of results) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label}${ms ? ` (${took(ms)})` : ''}`);
for (const line of tests.failures) console.log(`  failed: ${line}`);
for (const line of tests.flaky) console.log(`  flaky (passed on retry): ${line}`);
console.log(`time: ${took(Date.now() - started)}`);
console.log(`tests: ${tests.passed} passed, ${tests.failed} failed`);
process.exit(failedSteps === 0 && tests.failed === 0 ? 0 : 1);
