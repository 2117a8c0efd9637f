// What a legacy (2025-11-25) server request can say about the call it serves, in its own
// params: the call's progress token, or the task it belongs to. Read from both sides (the
// call's request and the server's request) so the linker can compare them.
//
// Hazard: SDK 1.x hands a handler's call id to the transport (`relatedRequestId`), which over
// HTTP picks the call's SSE stream and over stdio puts nothing on the wire; most servers
// (server-everything among them) carry neither field, so the linker falls back on the wire
// order (legacy.ts) and usually finds nothing here.
import type { RpcMessage } from '../protocol.js';

/** The 2025-11-25 tasks key a message's `_meta` names its task under. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** What one message names: its progress token and the task it belongs to (canonical text). */
export interface Names { progressToken?: string; taskId?: string }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const tokenText = (v: unknown): string | undefined => (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? JSON.stringify(v) : undefined);

/** The names a client's request carries: `_meta.progressToken`, and the task it reads
 *  (`params.taskId` of tasks/result, tasks/get) or belongs to (`_meta` related-task). */
export function callNames(m: RpcMessage): Names {
  const meta = isObject(m.params?._meta) ? m.params._meta : {};
  const related = isObject(meta[RELATED_TASK_META]) ? meta[RELATED_TASK_META] : {};
  const task = typeof related.taskId === 'string' ? related.taskId : typeof m.params?.taskId === 'string' ? m.params.taskId : undefined;
  return { progressToken: tokenText(meta.progressToken), taskId: task };
}

/** The names a server's request carries: the same two `_meta` fields. */
export function serverRequestNames(m: RpcMessage): Names {
  const meta = isObject(m.params?._meta) ? m.params._meta : {};
  const related = isObject(meta[RELATED_TASK_META]) ? meta[RELATED_TASK_META] : {};
  return { progressToken: tokenText(meta.progressToken), taskId: typeof related.taskId === 'string' ? related.taskId : undefined };
}

/** The candidates whose call the server request names, by progress token first, then by
 *  task; empty when it names none or none of them. */
export function namedBy<T>(asked: Names, candidates: readonly T[], namesOf: (c: T) => Names | undefined): T[] {
  if (asked.progressToken !== undefined) {
    const hit = candidates.filter((c) => namesOf(c)?.progressToken === asked.progressToken);
    if (hit.length > 0) return hit;
  }
  if (asked.taskId !== undefined) return candidates.filter((c) => namesOf(c)?.taskId === asked.taskId);
  return [];
}
