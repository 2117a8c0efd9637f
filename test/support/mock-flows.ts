// The multi-round flows the mock's proof runs with the official SDK v2 client (2.4.0): every
// tool of the embedded demo, its prompt and its resource, each through all its rounds with
// the client's own auto-fulfilment. What each call resolved to is the ground truth compared
// between the real server and the mock.
import { Client, StreamableHTTPClientTransport, type ElicitRequestParams, type Transport } from '@modelcontextprotocol/client';

/** An MCP endpoint URL, or a maker of another transport (stdio). */
export type Target = string | (() => Transport);

const PICKS: Record<string, string | number | boolean> = { name: 'Acme Labs', plan: 'pro', priority: 'high', strictness: 'gentle', confirm: true, destination: 'Lisbon', book: true };

function fill(params: ElicitRequestParams): Record<string, string | number | boolean> {
  const content: Record<string, string | number | boolean> = {};
  if (params.mode === 'url') return content;
  for (const [key, prop] of Object.entries(params.requestedSchema.properties)) {
    const p = prop as { type?: string; enum?: (string | number)[]; default?: string | number | boolean };
    content[key] = PICKS[key] ?? p.enum?.[0] ?? p.default ?? (p.type === 'boolean' ? true : p.type === 'integer' || p.type === 'number' ? 2 : `typed ${key}`);
  }
  return content;
}

/** A v2 client on 2026-07-28 that answers forms (or declines them all), sampling and roots. */
export async function connectClient(target: Target, opts: { decline?: boolean } = {}): Promise<Client> {
  const client = new Client({ name: 'mock-proof', version: '1.0.0' }, {
    versionNegotiation: { mode: 'auto' },
    capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
  });
  client.setRequestHandler('elicitation/create', async (req) =>
    opts.decline ? { action: 'decline' as const } : req.params.mode === 'url' ? { action: 'accept' as const } : { action: 'accept' as const, content: fill(req.params) });
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant', model: 'proof-model', stopReason: 'endTurn', content: { type: 'text', text: 'A server may answer early and ask for input.' },
  }));
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///home/proof/project', name: 'project' }] }));
  await client.connect(typeof target === 'string' ? new StreamableHTTPClientTransport(new URL(target)) : target());
  return client;
}

/** The demo's flows, one after another; each entry is what the call resolved to.
 *  `progress: false` leaves slow_report without a progress callback: over stdio the client
 *  can settle the call before it has run the callbacks of the lines before the answer, so
 *  how many it counts depends on the scheduler, for the real server as for the mock. */
export async function demoFlows(target: Target, opts: { progress?: boolean } = {}): Promise<unknown[]> {
  const client = await connectClient(target);
  const out: unknown[] = [];
  const progress: unknown[] = [];
  try {
    out.push(await client.listTools());
    const calls: [string, Record<string, unknown>][] = [
      ['confirm_action', { action: 'deploy to staging' }],
      ['open_dashboard', {}],
      ['summarize', { text: 'Multi round-trip requests let a server ask the client for input.' }],
      ['list_workspace', {}],
      ['setup_wizard', {}],
      ['busy', {}],
    ];
    for (const [name, args] of calls) out.push(await client.callTool({ name, arguments: args }));
    const withProgress = opts.progress ?? true;
    out.push(await client.callTool({ name: 'slow_report', arguments: { steps: 3 } }, withProgress ? { onprogress: (p) => void progress.push(p) } : undefined));
    if (withProgress) out.push(progress);
    out.push(await client.getPrompt({ name: 'review_prompt' }));
    out.push(await client.readResource({ uri: 'demo://secret-note' }));
  } finally {
    await client.close();
  }
  return out;
}

/** confirm_action accepted by one client and declined by another: two variants of one call. */
export async function variantFlows(url: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const decline of [false, true]) {
    const client = await connectClient(url, { decline });
    try {
      out.push(await client.callTool({ name: 'confirm_action', arguments: { action: 'ship it' } }));
    } finally {
      await client.close();
    }
  }
  return out;
}

/** The SDK v2 peer's three-round plan_trip (form, then sampling and roots together, then a
 *  form), accepted for one traveller and declined for another. */
export async function tripFlows(url: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [traveller, decline] of [['Ada', false], ['Bo', true]] as const) {
    const client = await connectClient(url, { decline });
    try {
      out.push(await client.callTool({ name: 'plan_trip', arguments: { traveller } }));
    } finally {
      await client.close();
    }
  }
  return out;
}
