// Another local user can reach every 127.0.0.1 port and forge every header. Played here by a
// second uid (nobody) running node against a relay of ours: it once got the page cookie by
// imitating a navigation, then the relay token from /relay/api/info, and with it calls,
// attaches and drains. Needs root to switch uid; skipped otherwise (hook-level tests in
// page-secret.test.ts cover the same refusals for one uid).
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_TOKEN, startRelay, TOKEN, type RelayHarness } from './relay-harness.js';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

// What the attacker does, as nobody: every way in it has, each answer summarised.
const ATTACK = `
const http = require('node:http');
const [port, infoFile] = process.argv.slice(1);
const origin = 'http://127.0.0.1:' + port;
// Raw requests: fetch would replace the forged Sec-Fetch-* headers with its own.
const ask = (method, path, headers) => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port, method, path, headers: { host: '127.0.0.1:' + port, ...headers } }, (res) => {
    let text = '';
    res.on('data', (d) => (text += d));
    res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
  });
  req.on('error', reject);
  req.end();
});
const out = {};
const page = await ask('GET', '/', { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none', 'sec-fetch-user': '?1' });
out.pageStatus = page.status;
out.pageCookie = page.headers['set-cookie'] ?? null;
const cookie = ((out.pageCookie ?? [])[0] ?? '').split(';')[0];
const forged = { origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', cookie };
const info = await ask('GET', '/relay/api/info', forged);
out.info = info.status;
out.infoBody = info.text;
out.drain = (await ask('POST', '/relay/api/backlog', forged)).status;
out.attach = (await ask('POST', '/relay/stdio-attach/victim', {})).status;
try { require('node:fs').readFileSync(infoFile, 'utf8'); out.infoFile = 'read'; } catch (e) { out.infoFile = e.code; }
console.log(JSON.stringify(out));
`;

describe('another local user (uid nobody)', () => {
  let h: RelayHarness;
  let infoFile: string;
  beforeAll(async () => {
    h = await startRelay();
    infoFile = h.relay.publish(h.port);
  });
  afterAll(async () => {
    await h.close();
  });

  it.runIf(isRoot)('gets no page cookie, no relay token, no drain and no attach, and cannot read the link or the token from the info file', async () => {
    // The attacker can reach node itself; the info file is in a 0700 folder of ours.
    accessSync(process.execPath, constants.X_OK);
    // Spawned, not spawnSync: the relay answering it lives in this process.
    const run = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      const c = spawn(process.execPath, ['--input-type=commonjs', '-e', `(async () => {${ATTACK}})()`, String(h.port), infoFile], { uid: NOBODY, gid: NOBODY, cwd: '/' });
      let stdout = '';
      let stderr = '';
      c.stdout.on('data', (d) => (stdout += d));
      c.stderr.on('data', (d) => (stderr += d));
      c.on('close', () => resolve({ stdout, stderr }));
    });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ pageStatus: 403, pageCookie: null, info: 403, drain: 403, attach: 403, infoFile: 'EACCES' });
    expect(String(out.infoBody)).not.toContain(TOKEN);
    expect(run.stdout).not.toContain(PAGE_TOKEN);
  });
});
