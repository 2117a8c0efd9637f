// An SDK v2 client that starts the stdio demo server through `mrtr-inspector wrap`, the way a
// desktop client's configuration would, and completes the three-round `setup_wizard`.
// The wrap finds the inspector from MRTR_INSPECTOR_URL and its info file in MRTR_RELAY_DIR,
// passed on (the token is read from that file, never passed).
// Prints one JSON line with the result and exits 0, or the error on stderr and exits 1.
// Run: npx tsx test/peers/stdio/stdio-client.ts   (cwd: the repository)
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const ANSWERS: Record<string, string | number | boolean> = { name: 'Stdio Labs', plan: 'team', confirm: true };

async function main(): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['cli/bin.js', 'wrap', '--name', 'demo', '--', process.execPath, '--import', 'tsx', 'test/peers/stdio/demo-stdio-server.ts'],
    env: {
      PATH: process.env.PATH ?? '',
      MRTR_INSPECTOR_URL: process.env.MRTR_INSPECTOR_URL ?? '',
      MRTR_RELAY_DIR: process.env.MRTR_RELAY_DIR ?? '',
      MRTR_RELAY_JSONL: process.env.MRTR_RELAY_JSONL ?? '',
    },
  });
  const client = new Client({ name: 'stdio-test-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async (req) => {
    if (req.params.mode === 'url') return { action: 'decline' as const };
    const content: Record<string, string | number | boolean> = {};
    for (const key of Object.keys(req.params.requestedSchema.properties)) content[key] = ANSWERS[key] ?? `answer ${key}`;
    return { action: 'accept' as const, content };
  });
  await client.connect(transport);
  const result = await client.callTool({ name: 'setup_wizard', arguments: {} });
  const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
  await client.close();
  process.stdout.write(JSON.stringify({ ok: true, text }) + '\n');
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`stdio-client failed: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
