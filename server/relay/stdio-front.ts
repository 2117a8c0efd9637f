// The relay's HTTP front for a served stdio server (`wrap --serve`) answers as an HTTP MCP
// server would, for what only HTTP has: the required 2026 headers, and the one process
// behind it.
//
// Headers: a 2026-07-28 request whose MCP-Protocol-Version, Mcp-Method or Mcp-Name is missing
// or disagrees with the body is refused here with 400 and -32020 (shttp:580-603). A stdio
// server never sees headers, so passing it on would let it answer, and lint would then blame
// the stdio server (http/mismatch-accepted) for what the front accepted. The check is the
// lint rules' own (requestHeaderProblems; taskHeaderProblems for the tasks extension's
// tasks/get, tasks/update and tasks/cancel, whose Mcp-Name is params.taskId), so the two
// can never disagree.
//
// Era: a stdio server is one process with one connection, and a server that speaks both
// eras picks one from its opening message for the connection's life (the SDK v2's
// serveStdio: after a 2026-07-28 caller a legacy initialize gets -32022). Every caller of the
// front shares that connection, so a refusal of a caller of the other era gets a note saying
// which era the process speaks and how to restart it. One process per legacy session would
// hide this, but it is not ours to do: the relay spawns nothing, and a second copy of the
// developer's server (its files, its memory) is not the server they are debugging.
import type { Era, HeaderPair, RpcMessage } from '../../worker/protocol.js';
import { eraOfRequest } from '../../worker/decode/era.js';
import { classifyMessage } from '../../worker/decode/jsonrpc.js';
import { requestHeaderProblems } from '../../worker/lint/rules/support-http.js';
import { taskHeaderProblems } from '../../worker/lint/rules/support-task-header.js';

/** The header on `POST /relay/stdio-attach/<name>` by which wrap says the era its server
 *  process already speaks (it outlives an inspector restart; the relay does not). */
export const STDIO_ERA_HEADER = 'x-mrtr-stdio-era';

/** The JSON-RPC error for missing or mismatched required headers (shttp:597-603). */
export const HEADER_MISMATCH = -32020;

const ERAS: readonly Era[] = ['2026-07-28', 'legacy'];

/** An era named by wrap's attach header, or undefined for anything else. */
export function parseEra(value: string | null | undefined): Era | undefined {
  return ERAS.find((e) => e === value);
}

/** The message as the decoder sees it, as sent by a client. */
export function asClientMessage(msg: Record<string, unknown>): RpcMessage {
  return classifyMessage(msg, { exchange: 0, direction: 'client-to-server', stream: 'post-body', t: 0 }, 0, false);
}

/** The era a stdio server reads from a line: the body alone, as the SDK v2's serveStdio does
 *  (stdio has no headers). Undefined for a line that picks none: an answer, or the SDK v2's
 *  `server/discover` probe, after which a legacy opening still pins legacy. */
export function pinningEra(msg: Record<string, unknown>): Era | undefined {
  const m = asClientMessage(msg);
  if (m.kind !== 'request' && m.kind !== 'notification') return undefined;
  if (m.method === 'server/discover') return undefined;
  return eraOfRequest([], [m]);
}

/** Why a request must be refused with 400 and -32020, or null when its headers are right. */
export function headerRefusal(msg: Record<string, unknown>, headers: Headers): string | null {
  const pairs: HeaderPair[] = [];
  headers.forEach((value, name) => pairs.push({ name, value }));
  const m = asClientMessage(msg);
  if (eraOfRequest(pairs, [m]) !== '2026-07-28') return null;
  const problems = [...requestHeaderProblems(pairs, [m]), ...taskHeaderProblems(pairs, [m])].filter((p) => p.message.kind === 'request');
  if (problems.length === 0) return null;
  return `Header mismatch: ${problems.map((p) => `${p.header} ${p.what}`).join('; ')}. A 2026-07-28 request must carry MCP-Protocol-Version, Mcp-Method and Mcp-Name matching its body (the name for tools/call, prompts/get and resources/read; params.taskId for tasks/get, tasks/update and tasks/cancel).`;
}

const eraWords = (e: Era) => (e === 'legacy' ? '2025-era (legacy, initialize first)' : '2026-07-28');

/** The note added to an error answer when the caller speaks another era than the process. */
export function eraNote(name: string, speaks: Era, asked: Era): string {
  return ` [mrtr-inspector: the stdio server "${name}" is one process, and its first caller made it speak ${eraWords(speaks)}; it may refuse ${eraWords(asked)} requests for that until it restarts. To serve a ${eraWords(asked)} client, stop \`mrtr-inspector wrap --serve --name ${name}\` and start it again, and connect that client first.]`;
}
