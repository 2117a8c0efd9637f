// `mrtr-inspector lint` at the real limits on input past what one string can hold: a JSONL
// line of 600 MiB once ended in an uncaught RangeError and exit 1 (which means "findings").
// Now it is skipped with a message, and input errors exit 2. Slow-ish (writes 600 MiB).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonlLine } from '../../../worker/capture/index.js';
import { sampleRecords } from '../capture/sample-records.js';
import { buildCliIfStale } from '../../support/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'mrtr-big-'));
const path = join(dir, 'one-huge-line.jsonl');
const MIB = 1024 * 1024;

beforeAll(() => {
  buildCliIfStale();
  const [a, b] = sampleRecords();
  const fd = openSync(path, 'w');
  writeSync(fd, jsonlLine(a) + '{"id":"');
  const block = Buffer.alloc(MIB, 'x');
  for (let i = 0; i < 600; i++) writeSync(fd, block);
  writeSync(fd, '"}\n' + jsonlLine(b));
  closeSync(fd);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lint = (...args: string[]) => spawnSync(process.execPath, ['cli/bin.js', 'lint', path, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '' } });

describe('mrtr-inspector lint on a JSONL line longer than a string can be', () => {
  it('exits 2 naming the line it could not take, and reads the rest with --allow-partial', () => {
    const strict = lint();
    expect(strict.stderr).toMatch(/^mrtr-inspector: .*one-huge-line\.jsonl: 1 of 3 lines could not be read; the first: line 2: the line is 600 MiB long, more than the 128 MiB one record may take; it was skipped unread\./);
    expect(strict.status).toBe(2);
    const partial = lint('--allow-partial', '--format', 'json');
    expect(partial.stderr).toMatch(/^mrtr-inspector: skipped line 2: the line is 600 MiB long/);
    expect(partial.status).toBe(0);
    expect(JSON.parse(partial.stdout).input).toMatchObject({ format: 'jsonl', exchanges: 3 });
  }, 120_000);
});
