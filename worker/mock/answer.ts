// A recorded answer made the client's: the JSON-RPC id and progress token the client sent
// instead of the recorded ones, and the mock's fresh requestState instead of the recorded
// token (so a client that replays a token it saw elsewhere is caught).
import type { RecordedRound } from './book.js';
import { asObject } from '../decode/meta.js';

/** One message to send, as JSON text, and when (ms after the request arrived). */
export interface OutMessage {
  at: number;
  event?: string;
  eventId?: string;
  text: string;
}

/** What the client's request brings that the answer must carry back. */
export interface ClientSide {
  id: unknown;
  progressToken: unknown;
  /** The token this mock issues in place of the recorded one (when the round issued one). */
  freshState: string | null;
  /** A task's answer from another recorded run of it than the one the client's taskId came
   *  from: that run's taskId, and the client's, which the answer says instead. */
  task?: { recorded: string; client: string };
}

/** `o` with its taskId swapped for the client's, when it is the recorded one. */
function withTaskId(o: Record<string, unknown>, task: ClientSide['task']): Record<string, unknown> {
  return task && o.taskId === task.recorded ? { ...o, taskId: task.client } : o;
}

function rewriteOne(value: unknown, round: RecordedRound, client: ClientSide): unknown {
  const m = asObject(value);
  if (!m) return value;
  const out: Record<string, unknown> = { ...m };
  const isAnswer = ('result' in m || 'error' in m) && !('method' in m);
  if (isAnswer && JSON.stringify(m.id) === JSON.stringify(round.requestId)) out.id = client.id;
  const result = asObject(m.result);
  if (isAnswer && result && round.stateIssued !== null && result.requestState === round.stateIssued && client.freshState !== null)
    out.result = { ...result, requestState: client.freshState };
  if (isAnswer && result && client.task) out.result = withTaskId(asObject(out.result) ?? result, client.task);
  const params = asObject(m.params);
  if (!isAnswer && params && client.task) out.params = withTaskId(params, client.task);
  if (m.method === 'notifications/progress' && params && round.progressToken !== undefined && params.progressToken === round.progressToken && client.progressToken !== undefined)
    out.params = { ...(asObject(out.params) ?? params), progressToken: client.progressToken };
  return out;
}

/** The round's recorded messages, rewritten for this client, as JSON text. */
export function answerFor(round: RecordedRound, client: ClientSide): OutMessage[] {
  return round.messages.map((m) => {
    const value = Array.isArray(m.value) ? m.value.map((v) => rewriteOne(v, round, client)) : rewriteOne(m.value, round, client);
    const out: OutMessage = { at: m.at, text: m.value === null ? '' : JSON.stringify(value) };
    if (m.event !== undefined) out.event = m.event;
    if (m.eventId !== undefined) out.eventId = m.eventId;
    return out;
  });
}

/** One message as a text/event-stream frame (event name and id when recorded). */
export function sseFrame(m: OutMessage): string {
  let out = m.event !== undefined ? `event: ${m.event}\n` : '';
  if (m.eventId !== undefined) out += `id: ${m.eventId}\n`;
  return out + m.text.split('\n').map((l) => `data: ${l}\n`).join('') + '\n';
}
