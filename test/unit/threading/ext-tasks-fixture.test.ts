// The recorded real-peer task (the official @modelcontextprotocol/ext-tasks client over the
// SDK v2 client, driving the demo's research_report through the relay) threads exactly as
// the recorder's ground truth says, and raises no error finding.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';

interface TaskTruth { taskId: string; finalStatus: string; keys: string[]; steps: string[]; updates: number[]; foldedPolls: number }
interface ManifestCall { method: string; name: string; finalOutcome: 'complete' | 'error'; exchanges: number[]; rounds: number; task: TaskTruth }
interface ManifestFixture { entryCount: number; calls: ManifestCall[]; other: { seq: number; method: string }[] }
const manifest = JSON.parse(readFileSync('test/fixtures/tasks/manifest.json', 'utf8')) as { fixtures: Record<string, ManifestFixture> };

// The task parts of the thread model, read loosely so this file compiles before and after
// the model names them.
interface TaskRound { task?: { step: string; taskId: string; status: string | null; requests?: Record<string, string>; polls?: unknown[] }; inputResponses?: string[] }
interface TaskConversation { task?: { taskId: string; created: number | null; status: string | null }; rounds: TaskRound[] }

async function load(): Promise<Analysis> {
  const imported = importCapture(readFileSync('test/fixtures/tasks/ext-tasks.har', 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  return analyze(imported.exchanges);
}

describe('the ext-tasks client driving the demo task through the relay (ext-tasks.har)', () => {
  const m = manifest.fixtures['ext-tasks.har'];
  const call = m.calls[0];
  const truth = call.task;

  it('threads the task call, every poll and both updates into one conversation, as recorded', async () => {
    const a = await load();
    const c = a.conversations.find((x) => x.exchanges.includes(call.exchanges[0]));
    expect(c).toBeDefined();
    expect(c!.method).toBe(call.method);
    expect(c!.name).toBe(call.name);
    expect(c!.exchanges).toEqual(call.exchanges);
    expect(c!.status).toBe(call.finalOutcome);
    const t = c as unknown as TaskConversation;
    expect(t.task).toEqual({ taskId: truth.taskId, created: 0, status: truth.finalStatus });
    expect(c!.rounds).toHaveLength(call.rounds - truth.foldedPolls);
    expect(t.rounds.map((r) => r.task?.step)).toEqual(truth.steps);
    expect(t.rounds.every((r) => r.task?.taskId === truth.taskId)).toBe(true);
    // Keys over the task's lifetime: asked in tasks/get, answered in tasks/update, in order.
    const asked = [...new Set(t.rounds.flatMap((r) => Object.keys(r.task?.requests ?? {})))];
    expect(asked).toEqual(truth.keys);
    expect(t.rounds.filter((r) => r.task?.step === 'update').flatMap((r) => r.inputResponses ?? [])).toEqual(truth.keys);
    // Everything else (discover, the two tool lists) is a conversation of its own.
    for (const o of m.other) expect(a.conversations.some((x) => x.exchanges.length === 1 && x.exchanges[0] === o.seq && x.method === o.method)).toBe(true);
    expect(a.conversations).toHaveLength(1 + m.other.length);
  });

  it('raises no error-severity finding on the conforming client and server', async () => {
    const a = await load();
    const errors = a.findings.filter((f) => f.severity === 'error');
    expect(errors, JSON.stringify(errors, null, 1)).toEqual([]);
  });
});
