import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { DEMO_STATE_KEY } from '../../worker/demo-key.js';

// What every demo tool carries between rounds: which tool minted it, the round it asked
// for, and the answers collected so far (the wizard and busy tools need them back).
export interface DemoState {
  tool: string;
  step: number;
  answers: Record<string, unknown>;
  /** Set by the signed store: makes every minted token unique. */
  nonce?: string;
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

// Redemptions already made (mrtr:238-243: single use is the server's to enforce). The demo
// redeems a token once per set of answers: the same token with the same inputResponses a
// second time (a double submission, or two parallel retries) is refused, while the same
// token with other answers is a fork, a new branch, and allowed. Shared by every request of
// one handler (each request gets a fresh McpServer); bounded, the oldest forgotten first, and
// a forgotten token has long expired at any realistic request rate.
export class SpentTokens {
  readonly #spent = new Set<string>();
  constructor(private readonly cap = 50_000) {}

  /** Marks a token used; false when it already was. */
  spend(token: string): boolean {
    if (this.#spent.has(token)) return false;
    this.#spent.add(token);
    if (this.#spent.size > this.cap) this.#spent.delete(this.#spent.values().next().value as string);
    return true;
  }
}

// The well-behaved store: the SDK's HMAC codec under the public demo key, ten-minute expiry,
// and single use when given the handler's spent-token set.
export function createSignedStateStore(spent?: SpentTokens): DemoStateStore {
  const codec = createRequestStateCodec<DemoState>({ key: DEMO_STATE_KEY, ttlSeconds: 600, bind: bindingOf });
  return {
    signed: true,
    // A nonce per token: the codec is deterministic, so two calls minting the same state in
    // the same second would otherwise get byte-identical tokens and one would look like a
    // re-use of the other.
    mint: (state, ctx) => codec.mint({ ...state, nonce: crypto.randomUUID() }, ctx),
    read: (ctx) => ctx.mcpReq.requestState<DemoState>(),
    verify: async (state, ctx) => {
      const value = await codec.verify(state, ctx);
      // Throwing here makes the SDK answer -32602 "Invalid or expired requestState".
      if (spent && !spent.spend(`${state}\u0000${canonical(ctx.mcpReq.inputResponses ?? null)}`)) throw new Error('requestState already redeemed with these answers');
      return value;
    },
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

// JSON with sorted keys, so the same answers give the same redemption key.
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
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
