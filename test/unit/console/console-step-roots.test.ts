// The Console's roots editor: a roots answer is checked (validateRoots) before the stepper
// takes it, for the retry and for a fork, and a refusal names the entry and why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRoots } from '../../../worker/console/answers.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { ConsoleStep } from '../../../worker/services/console-step.js';
import type { CallSpec } from '../../../worker/view/console-types.js';
import { serveDemo, type Running } from './servers.js';

const send = fetchTransport({ timeoutMs: 10_000 });
let demo: Running;
beforeAll(async () => {
  demo = await serveDemo();
});
afterAll(async () => {
  await demo.close();
});

const spec = (url: string): CallSpec => ({
  url, method: 'tools/call', params: { name: 'list_workspace', arguments: {} },
  setup: { clientInfo: { name: 'console-test', version: '1.0.0' }, toggles: { roots: true } },
});

describe('roots answers in the Console', () => {
  it('says which root is wrong and why', () => {
    expect(validateRoots({ roots: [{ uri: 'file:///home/me/p', name: 'p' }, { uri: 'https://example.com/repo' }, { uri: 'not a uri' }, { name: 'x' }, 'file:///a', { uri: 'file:///b', name: 3 }] })).toEqual([
      'root 2 ("https://example.com/repo"): uri must be a file:// URI, not https:',
      'root 3 ("not a uri"): uri is not a valid URI',
      'root 4 has no uri (each root needs a file:// URI)',
      'root 5 must be an object {uri, name?}',
      'root 6: name must be text',
    ]);
    expect(validateRoots({ roots: 'file:///a' })).toEqual(['"roots" must be a list of {uri, name?} objects']);
    expect(validateRoots({ roots: [{ uri: 'file:///home/me/p' }, { uri: 'FILE://host/share', name: 'share' }] })).toEqual([]);
  });

  it('refuses a roots answer with a non-file URI before it is used, naming the entry', async () => {
    const step = new ConsoleStep(async () => 's');
    const paused = await step.start(spec(demo.url), send, 1);
    expect(paused.status).toBe('paused');
    expect(paused.questions.map((q) => q.kind)).toEqual(['roots']);
    const refused = await step.answer('roots', { roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'https://example.com/repo' }] });
    expect(refused.message).toBe('the roots answer to "roots" was not used: root 2 ("https://example.com/repo"): uri must be a file:// URI, not https:. Fix the list and use it again.');
    expect(refused.pending).toEqual(['roots']);
    expect(refused.preview?.text).not.toContain('https://example.com/repo');
    const used = await step.answer('roots', { roots: [{ uri: 'file:///work', name: 'work' }] });
    expect(used.message).toBeUndefined();
    expect(used.pending).toEqual([]);
    expect(used.preview?.text).toContain('file:///work');
    const done = await step.send();
    expect(done.status).toBe('complete');
  });

  it('refuses a fork whose roots answer is invalid, and sends nothing', async () => {
    const step = new ConsoleStep(async () => 's');
    await step.start(spec(demo.url), send, 1);
    await step.answer('roots', { roots: [{ uri: 'file:///work' }] });
    const done = await step.send();
    const retry = done.rounds.findIndex((r) => r.retry);
    const refused = await step.fork(retry, { roots: { roots: [{ uri: 'relative/path' }] } });
    expect(refused.message).toContain('root 1 ("relative/path"): uri is not a valid URI');
    expect(refused.rounds.length).toBe(done.rounds.length);
    const forked = await step.fork(retry, { roots: { roots: [{ uri: 'file:///other' }] } });
    expect(forked.message).toBeUndefined();
    expect(forked.rounds.length).toBe(done.rounds.length + 1);
  });
});
