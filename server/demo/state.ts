import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { DEMO_STATE_KEY } from '../../worker/demo-key.js';

// What every demo tool carries between rounds: which tool minted it, the round it asked
// for, and the answers collected so far (the wizard and busy tools need them back).
export interface DemoState {
  tool: string;
  step: number;
  answers: Record<string, unknown>;
}

// Mints and reads a round's requestState; the misbehaving variant skips every protection.
export interface DemoStateStore {
  readonly signed: boolean;
  mint(state: DemoState, ctx: ServerContext): Promise<string>;
  read(ctx: ServerContext): DemoState | undefined;
  /** The server-options hook that rejects tampered tokens (absent when unsigned). */
  verify?: (state: string, ctx: ServerContext) => Promise<unknown>;
}

// The name a request targets, from the Mcp-Name header the SDK has already cross-checked
// against the body (ServerContext carries no params, so the header is the only handle).
function targetName(ctx: ServerContext): string {
  return ctx.http?.req?.headers.get('mcp-name') ?? '';
}

// Binds a token to method + tool/prompt/uri, so a token replayed on another tool is refused.
export function bindingOf(ctx: ServerContext): string {
  return `${ctx.mcpReq.method}\u0000${targetName(ctx)}`;
}

// The well-behaved store: the SDK's HMAC codec under the public demo key, ten-minute expiry.
export function createSignedStateStore(): DemoStateStore {
  const codec = createRequestStateCodec<DemoState>({ key: DEMO_STATE_KEY, ttlSeconds: 600, bind: bindingOf });
  return {
    signed: true,
    mint: (state, ctx) => codec.mint(state, ctx),
    read: (ctx) => ctx.mcpReq.requestState<DemoState>(),
    verify: (state, ctx) => codec.verify(state, ctx),
  };
}

// The misbehaving store: plain base64 JSON, no MAC, no expiry, no binding. Readable and
// forgeable by anyone, which is exactly what the linter's state/* rules look for.
export function createUnsignedStateStore(): DemoStateStore {
  return {
    signed: false,
    mint: async (state) => toBase64(JSON.stringify(state)),
    read: (ctx) => {
      const raw = ctx.mcpReq.requestState<string>();
      if (typeof raw !== 'string') return undefined;
      try {
        const parsed = JSON.parse(fromBase64(raw)) as DemoState;
        return parsed && typeof parsed === 'object' ? parsed : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

// UTF-8 safe base64 without Buffer, so the demo also runs where only web APIs exist.
function toBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(b64: string): string {
  const binary = atob(b64);
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
