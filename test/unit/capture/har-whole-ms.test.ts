// A HAR's startedDateTime has whole milliseconds and its `time` has fractions, so an
// answer's end (start + time) can come out after the start of the request its client sent
// once it had that answer, when both fall in the same millisecond. The importer keeps ends
// on the whole-ms grid (har-import.ts, harTimes), and the threading and the lint, which
// read "answered before sent", see the order that happened.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';

interface Entry {
  startedDateTime: string;
  time: number;
  timings: Record<string, number>;
  request: { postData: { text: string } };
  response: { content: { text: string } };
}
const load = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { log: { entries: Entry[] } };

/** Puts `entries` one after another from `t0`: each answered `took` ms after its start
 *  (a fraction), the next sent in the same millisecond as that answer. */
function inSameMillisecond(entries: Entry[], t0: number, took: number): void {
  let t = t0;
  for (const e of entries) {
    e.startedDateTime = new Date(t).toISOString();
    e.time = took;
    e.timings = { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0.1, wait: took - 0.2, receive: 0.1 };
    t = Math.floor(t + took);
  }
}

async function analysisOf(har: { log: { entries: Entry[] } }) {
  const imported = importCapture(JSON.stringify(har));
  if (!imported.ok) throw new Error(imported.error.message);
  return { records: imported.exchanges, analysis: await analyze(imported.exchanges) };
}

describe('answers and sends within one millisecond of a HAR', () => {
  it('keeps an answer\'s end no later than the next request\'s start', async () => {
    const har = load('test/fixtures/tasks/ext-tasks.har');
    har.log.entries = har.log.entries.slice(3, 6); // the task's create, the poll asking "scope", the update answering it
    inSameMillisecond(har.log.entries, Date.UTC(2026, 11, 2, 4, 39, 47, 205), 6.4);
    const { records } = await analysisOf(har);
    for (let i = 0; i + 1 < records.length; i++) {
      expect(records[i].endedAt).toBeLessThanOrEqual(records[i + 1].startedAt);
      expect(records[i].response!.receivedAt).toBeLessThanOrEqual(records[i].endedAt!);
    }
    expect(records[0].endedAt).toBe(records[0].startedAt + 6);
  });

  it('takes a tasks/update sent in the millisecond its poll was answered as answering that poll', async () => {
    const har = load('test/fixtures/tasks/ext-tasks.har');
    const update = har.log.entries.slice(3, 6);
    expect(JSON.parse(update[1].response.content.text).result.status).toBe('input_required');
    expect(JSON.parse(update[2].request.postData.text).method).toBe('tasks/update');
    har.log.entries = update;
    inSameMillisecond(update, Date.UTC(2026, 11, 2, 4, 39, 47, 205), 6.4);
    const { analysis } = await analysisOf(har);
    expect(analysis.conversations.find((c) => c.task !== undefined)?.exchanges).toEqual([0, 1, 2]);
    expect(analysis.findings.filter((f) => f.rule === 'tasks/update-not-outstanding')).toEqual([]);
  });

  it('threads a retry without a token, sent in the millisecond its input_required was answered', async () => {
    const har = load('test/fixtures/sdk/sdk-v2-manual.har');
    // setup_wizard's first two rounds, without their tokens: only the keys and the times link them.
    const rounds = har.log.entries.slice(1, 3);
    const answer = JSON.parse(rounds[0].response.content.text);
    delete answer.result.requestState;
    rounds[0].response.content.text = JSON.stringify(answer);
    const retry = JSON.parse(rounds[1].request.postData.text);
    delete retry.params.requestState;
    rounds[1].request.postData.text = JSON.stringify(retry);
    har.log.entries = rounds;
    inSameMillisecond(rounds, Date.UTC(2026, 11, 2, 5, 16, 47, 103), 3.7);
    const { analysis } = await analysisOf(har);
    const wizard = analysis.conversations.filter((c) => c.name === 'setup_wizard');
    expect(wizard).toHaveLength(1);
    expect(wizard[0].rounds.map((r) => r.link)).toEqual([null, 'match']);
  });
});
