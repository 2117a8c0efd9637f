// The Console's polls of a task reach the server no sooner than the task's pollIntervalMs
// apart, measured send to send, however long each send takes to leave.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildRequest, capabilitiesFrom } from '../../../worker/console/request.js';
import { createTaskDriver } from '../../../worker/console/task-driver.js';
import { withTasksExtension } from '../../../worker/console/task-request.js';
import type { ConsoleRequest, ConsoleResponse } from '../../../worker/console/types.js';

const client = { clientInfo: { name: 'console-test', version: '1' }, capabilities: capabilitiesFrom({ elicitationForm: true }) };
const call = buildRequest({ method: 'tools/call', id: 1, params: { name: 'slow_compute', arguments: { seconds: 2 } }, clientInfo: client.clientInfo, capabilities: withTasksExtension(client.capabilities) });

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

/** A task server answering after 100 ms, its pollIntervalMs per answer from `intervals`
 *  (the last one repeats); each send waits `delays` ms before it leaves, as the Console's
 *  filing of a send does, and is stamped when it leaves, as the page's fetch does. */
function server(delays: number[], intervals: number[], polls = 6) {
  const wire: number[] = [];
  let n = 0;
  const send = async (req: ConsoleRequest): Promise<ConsoleResponse> => {
    const body = JSON.parse(req.body) as { id: number; method: string };
    await new Promise((r) => setTimeout(r, delays[Math.min(wire.length, delays.length - 1)]));
    const sentAt = Date.now();
    if (body.method === 'tasks/get') wire.push(sentAt);
    await new Promise((r) => setTimeout(r, 100));
    const i = n++;
    const task = { taskId: 'slow-1', status: i > polls ? 'completed' : 'working', pollIntervalMs: intervals[Math.min(i, intervals.length - 1)], createdAt: '2026-12-05T08:00:00Z', lastUpdatedAt: '2026-12-05T08:00:00Z', ttlMs: 60000 };
    const result = body.method === 'tools/call' ? { resultType: 'task', ...task } : { resultType: 'complete', ...task, ...(i > polls ? { result: { content: [] } } : {}) };
    return { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], body: JSON.stringify({ jsonrpc: '2.0', id: body.id, result }), sentAt, receivedAt: Date.now() };
  };
  return { send, wire };
}

async function drive(send: (req: ConsoleRequest) => Promise<ConsoleResponse>) {
  const d = createTaskDriver({ send, url: 'http://127.0.0.1:9/mcp', client });
  const done = (async () => { await d.start(call); await d.pollUntilSettled(); })();
  await vi.runAllTimersAsync();
  await done;
  return d;
}

const gaps = (t: number[]) => t.slice(1).map((x, i) => x - t[i]);

describe('polling a task', () => {
  it('keeps pollIntervalMs between polls as they leave, when a slow send is followed by quick ones', async () => {
    const { send, wire } = server([0, 150, 20], [250]);
    const d = await drive(send);
    expect(d.state.status).toBe('completed');
    expect(wire.length).toBeGreaterThan(3);
    for (const g of gaps(wire)) expect(g).toBeGreaterThanOrEqual(250);
  });

  it('honours the latest pollIntervalMs the server gave', async () => {
    const { send, wire } = server([0], [250, 250, 600]);
    await drive(send);
    // Answers 0 and 1 asked 250 ms, every later one 600 ms.
    expect(gaps(wire)).toEqual([250, 600, 600, 600, 600, 600]);
  });
});
