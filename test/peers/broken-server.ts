// A deliberately broken 2026-07-28 server for `check`: an official SDK v2 McpServer whose
// tools each plant one multi-round fault, so every fault must come out as a failed probe at
// its tool. Nothing here verifies more than the fault leaves in place.
//   forgeable_order  state is plain base64 JSON, never verified: a modified token is taken (M11)
//   redeem_coupon    signed state, but a completed redemption is accepted again (M13; the tool
//                    says it is not idempotent)
//   stale_quote      signed state carrying an expiry the server never checks (M11)
//   lossy_form       the answers are lost: it asks the same question after every answer
import { createHmac, randomUUID } from 'node:crypto';
import { McpServer, fromJsonSchema, inputRequired, inputResponse, type ServerContext } from '@modelcontextprotocol/server';
import { serveSdkServer, type RunningDemo } from './serve-demo.js';

const KEY = 'broken-server-key-0123456789abcdef';
/** How long stale_quote's tokens say they live, in seconds. */
export const STALE_TTL_SECONDS = 1;

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const sign = (data: string) => createHmac('sha256', KEY).update(data).digest('base64url');

/** An HS256 JWS over `claims` (its signature is checked; its exp never is, by stale_quote). */
function jws(claims: Record<string, unknown>): string {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${sign(head)}`;
}
function readJws(token: string): Record<string, unknown> | undefined {
  const [h, p, s] = token.split('.');
  if (!h || !p || !s || sign(`${h}.${p}`) !== s) return undefined;
  try {
    return JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
function readPlain(token: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const itemSchema = { type: 'object' as const, properties: { item: { type: 'string' as const, minLength: 1 } }, required: ['item'] };
const noArgs = fromJsonSchema<Record<string, never>>({ type: 'object', properties: {} });
const readOnly = { readOnlyHint: true };
const raw = (ctx: ServerContext) => ctx.mcpReq.requestState<string>();
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const ask = (key: string, message: string, requestState: string) =>
  inputRequired({ inputRequests: { [key]: inputRequired.elicit({ message, requestedSchema: itemSchema }) }, requestState });
const answered = (ctx: ServerContext, key: string) => {
  const a = inputResponse(ctx.mcpReq.inputResponses, key);
  return a.kind === 'elicit' && a.action === 'accept' ? String(a.content?.item ?? '') : undefined;
};

function register(server: McpServer): void {
  server.registerTool('forgeable_order', { description: 'Plain, unverified state', inputSchema: noArgs, annotations: readOnly }, async (_args, ctx) => {
    const state = typeof raw(ctx) === 'string' ? readPlain(raw(ctx)!) : undefined;
    if (!state || state.tool !== 'forgeable_order') return ask('order', 'What to order?', Buffer.from(JSON.stringify({ tool: 'forgeable_order', data: { note: 'trusted without any check' } })).toString('base64'));
    const item = answered(ctx, 'order');
    return item === undefined ? ask('order', 'What to order?', raw(ctx)!) : text(`Ordered ${item} (${String((state.data as { note?: string })?.note)})`);
  });

  server.registerTool('redeem_coupon', { description: 'Signed state, but no single use', inputSchema: noArgs, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false } }, async (_args, ctx) => {
    const state = typeof raw(ctx) === 'string' ? readJws(raw(ctx)!) : undefined;
    if (!state || state.tool !== 'redeem_coupon' || (state.exp as number) * 1000 < Date.now()) return ask('coupon', 'Which coupon?', jws({ tool: 'redeem_coupon', nonce: randomUUID(), exp: Math.floor(Date.now() / 1000) + 300 }));
    const item = answered(ctx, 'coupon');
    return item === undefined ? ask('coupon', 'Which coupon?', raw(ctx)!) : text(`Redeemed coupon ${item}`);
  });

  server.registerTool('stale_quote', { description: 'Signed state whose expiry is never checked', inputSchema: noArgs, annotations: readOnly }, async (_args, ctx) => {
    const state = typeof raw(ctx) === 'string' ? readJws(raw(ctx)!) : undefined;
    if (!state || state.tool !== 'stale_quote') return ask('quote', 'Quote for what?', jws({ tool: 'stale_quote', nonce: randomUUID(), exp: Math.floor(Date.now() / 1000) + STALE_TTL_SECONDS }));
    const item = answered(ctx, 'quote');
    return item === undefined ? ask('quote', 'Quote for what?', raw(ctx)!) : text(`Quoted ${item}`);
  });

  server.registerTool('lossy_form', { description: 'Loses the answers', inputSchema: noArgs, annotations: readOnly }, async (_args, ctx) =>
    ask('name', 'Your name?', jws({ tool: 'lossy_form', nonce: randomUUID(), exp: Math.floor(Date.now() / 1000) + 300 })));
}

/** Serves the broken server on 127.0.0.1 at a random port. */
export function serveBrokenServer(): Promise<RunningDemo> {
  const factory = () => {
    const server = new McpServer({ name: 'check-broken-server', version: '1.0.0' });
    register(server);
    return server;
  };
  return serveSdkServer(factory);
}
