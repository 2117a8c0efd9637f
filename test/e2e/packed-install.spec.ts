// The package as users get it: packed, installed into an empty folder with --omit=dev and
// no registry, and started from there with no build tools. The page it serves captures the
// official SDK client's multi-round demo call through the relay's `/mcp` URL, threads it
// and verifies its requestState; a refused request is listed with its reason; a `--target`
// given at start is watched; the favicon and manifest the page links are served;
// `lint` from the same install reads a fixture.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_STATE_KEY } from '../../worker/demo-key.ts';
import { packAndInstall, ROOT, startPrinting, type StartedInspector } from '../support/packed-install.ts';
import { expect, InspectorPage, PAGE_TOKEN, test } from './fixtures.ts';

const RELAY_PEER = join(ROOT, 'test/peers/relay-client.ts');
const TOKEN = 'packed-install-token-0123456789';

// The SDK client, as its own process, against one relay URL; resolves to its exit and output.
function runSdkClient(url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RELAY_PEER, url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('the packed tarball, installed offline with --omit=dev, serves an inspector that captures, threads and verifies a demo call, and its lint runs', async ({ page, mcpServer }) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-packed-'));
  let server: StartedInspector | undefined;
  try {
    const installed = packAndInstall(dir);
    console.log(`packed-install: tarball ${(installed.tarballBytes / 1024).toFixed(0)} KiB, installed ${(installed.installedBytes / 1024 / 1024).toFixed(1)} MiB`);
    // Nothing of the build tool chain came along: the page is prebuilt, the server compiled.
    for (const dev of ['vite', 'tsx', 'svelte', 'typescript', '@sveltejs/vite-plugin-svelte']) {
      for (const at of ['node_modules', 'node_modules/mrtr-inspector/node_modules']) expect(existsSync(join(installed.prefix, at, dev)), `${at}/${dev}`).toBe(false);
    }

    const watched = mcpServer.url('/mcp');
    server = await startPrinting(installed.bin, ['--port', '0', '--target', watched], {
      cwd: installed.prefix,
      env: { ...process.env, MRTR_RELAY_TOKEN: TOKEN, MRTR_PAGE_TOKEN: PAGE_TOKEN, MRTR_RELAY_JSONL: join(dir, 'capture', 'relay.jsonl'), MRTR_RELAY_DIR: join(dir, 'capture') },
    });
    const relayUrl = `${server.origin}/relay/${TOKEN}/demo/mcp`;
    expect(server.banner).toContain(`Relay URL:   ${server.origin}/relay/${TOKEN}/<target>/mcp`);
    expect(server.banner).toContain('not captured');
    const targetId = `127.0.0.1-${new URL(watched).port}`;
    expect(server.banner).toContain(`${server.origin}/relay/${TOKEN}/${targetId}/mcp`);

    // The banner's Inspector line is the link that lets the browser in.
    expect(server.banner).toContain(`Inspector:   ${server.origin}/?token=${PAGE_TOKEN}`);
    await page.goto(`${server.origin}/?token=${PAGE_TOKEN}`);
    await expect(page).toHaveURL(`${server.origin}/`);
    const inspector = new InspectorPage(page);
    await inspector.waitUntilCapturing();
    // The built page links the favicon, the app icon and the manifest, and the package
    // serves each with its type (public/, copied into dist/web by the build).
    const linked = await page.locator('link[rel="icon"], link[rel="apple-touch-icon"], link[rel="manifest"]').evaluateAll((ls) => ls.map((l) => (l as HTMLLinkElement).href));
    expect(linked.map((href) => new URL(href).pathname).sort()).toEqual(['/apple-touch-icon.png', '/favicon-32.png', '/favicon.svg', '/manifest.webmanifest']);
    for (const href of linked) {
      const got = await page.request.get(href);
      expect(got.status(), href).toBe(200);
      expect(got.headers()['content-type'], href).toMatch(/^(image\/svg\+xml|image\/png|application\/manifest\+json)/);
    }
    await expect(page.locator(`[data-testid="target"][data-url="${watched}"]`)).toBeVisible();

    const run = await runSdkClient(relayUrl);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, asked: ['name', 'plan', 'confirm'] });

    const row = inspector.conversationRow('setup_wizard');
    await expect(row).toHaveAttribute('data-rounds', '4', { timeout: 30_000 });
    await expect(row).toHaveAttribute('data-status', 'complete');
    await row.click();
    await page.getByTestId('round').nth(1).getByRole('button').first().click();
    await page.getByTestId('tab-state').click();
    await page.getByTestId('key-input').fill(DEMO_STATE_KEY);
    await page.getByTestId('key-save').click();
    await expect(page.getByTestId('token').first()).toHaveAttribute('data-verified', 'true');

    // A client with a stale token is refused; the page says so, with the relay's reason.
    const refused = await fetch(`${server.origin}/relay/stale-token-0123456789abcdef/demo/mcp`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(403);
    const refusedRow = page.locator('[data-testid="exchange"][data-refused="true"]');
    await expect(refusedRow).toHaveCount(1);
    await expect(refusedRow.getByTestId('refused-reason')).toContainText('wrong relay token');
    await expect(refusedRow).toContainText('/relay/<wrong-token>/demo/mcp');
    // The --target is relayed under its printed id.
    const relayed = await fetch(`${server.origin}/relay/${TOKEN}/${targetId}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":9,"method":"ping"}' });
    expect(relayed.status).toBe(200);
    expect(mcpServer.seen.some((r) => r.path === '/mcp' && r.body.includes('"id":9'))).toBe(true);

    const lint = spawnSync(installed.bin, ['lint', join(ROOT, 'test/fixtures/sdk/sdk-v2-manual.har')], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(lint.stderr).toBe('');
    expect(lint.status).toBe(1);
    expect(lint.stdout).toContain('tools/call setup_wizard');
    expect(lint.stdout).toContain('mrtr/state-modified');
  } finally {
    await page.close();
    if (server) expect(await server.stop()).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }
});
