// The Console's tamper runs as the page sees them: an accepted flipped token that got exactly
// the genuine token's answer reaches the panel's view marked unchanged, one that moved the
// answer does not (the panel shows the first as a warning, the second as a breach).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStepper } from '../../../worker/console/stepper.js';
import { elicitResult } from '../../../worker/console/form.js';
import { tamperSubjectFromStep } from '../../../worker/console/tamper-subject.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { ConsoleTamper } from '../../../worker/services/console-runs.js';
import { serveUnverifiedStateServer } from '../../peers/unverified-state-server.js';
import type { RunningDemo } from '../../peers/serve-demo.js';
import { toolCall } from '../console/servers.js';

const send = fetchTransport({ timeoutMs: 10_000 });
let server: RunningDemo;
beforeAll(async () => {
  server = await serveUnverifiedStateServer();
});
afterAll(async () => {
  await server?.close();
});

/** "Run all" on the first round of `tool`, after its genuine retry was sent. */
async function runAllOn(tool: string) {
  const stepper = createStepper({ send });
  await stepper.start({ url: server.url, request: toolCall(tool) });
  stepper.answer('item', elicitResult('accept', { item: 'pen' }));
  const subject = tamperSubjectFromStep(await stepper.send(), 0, server.url);
  if ('error' in subject) throw new Error(subject.error);
  const tamper = new ConsoleTamper(async () => 'session-1');
  await tamper.setSubject(subject, `round #1 of the ${tool} call`, send);
  const view = await tamper.runAll(send);
  return { view, flip: view.tests.find((t) => t.test === 'flip-byte')! };
}

describe('ConsoleTamper views of a flipped token the server accepted', () => {
  it('marks it unchanged when the answer is the genuine one, and counts it in the report', async () => {
    const { view, flip } = await runAllOn('inert_note');
    expect(flip).toMatchObject({ state: 'done', verdict: 'accepted', unchanged: true, rule: 'mrtr/invalid-state-accepted' });
    expect(view.report?.summary.unchangedAnswer).toBe(1);
  });

  it('leaves it a plain acceptance when the answer moved', async () => {
    const { view, flip } = await runAllOn('quoted_note');
    expect(flip).toMatchObject({ state: 'done', verdict: 'accepted' });
    expect(flip.unchanged).toBeUndefined();
    expect(view.report?.summary.unchangedAnswer).toBe(0);
  });
});
