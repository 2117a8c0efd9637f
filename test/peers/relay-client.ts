// An external MCP client for the relay tests: the official SDK v2 client, run as its own
// Node process, negotiating 2026-07-28 through a relay URL and completing the demo's
// three-round `setup_wizard` by accepting every form. Prints one JSON line with the
// result on stdout and exits 0, or prints the error on stderr and exits 1.
// Run: npx tsx test/peers/relay-client.ts http://127.0.0.1:<port>/relay/<token>/demo
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const ANSWERS: Record<string, string | number | boolean> = { name: 'Relay Labs', plan: 'team', confirm: true };

async function main(url: string): Promise<void> {
  const client = new Client(
    { name: 'relay-test-client', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (req) => {
    if (req.params.mode === 'url') return { action: 'decline' as const };
    const content: Record<string, string | number | boolean> = {};
    for (const key of Object.keys(req.params.requestedSchema.properties)) {
      asked.push(key);
      content[key] = ANSWERS[key] ?? `answer ${key}`;
    }
    return { action: 'accept' as const, content };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = await client.callTool({ name: 'setup_wizard', arguments: {} });
  const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
  await client.close();
  process.stdout.write(JSON.stringify({ ok: true, text, asked }) + '\n');
}

const url = process.argv[2];
if (!url) {
  process.stderr.write('usage: tsx test/peers/relay-client.ts <relay URL>\n');
  process.exit(2);
}
main(url).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`relay-client failed: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
